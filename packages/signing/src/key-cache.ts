/**
 * A small cache of HMAC keys by secret, least recently used out first. Both backends keep their prepared keys in
 * one (Web Crypto's imported `CryptoKey`s, node:crypto's `KeyObject`s): a process signs with one or a few secrets,
 * and a server verifying for many merchants cannot grow it without bound.
 */
export interface KeyCache<Key> {
  /** The key of `secret`, made with `make` when it is not cached. */
  get(secret: string, make: (secret: string) => Key): Key;
  /** Forgets `secret`'s key (a Web Crypto import that failed must not stay cached). */
  delete(secret: string): void;
  readonly size: number;
}

export function createKeyCache<Key>(limit: number): KeyCache<Key> {
  const keys = new Map<string, Key>();
  // The most recently used entry, which is also the Map's last: a process that signs with one secret finds it
  // here without reordering the Map on every call.
  let lastSecret: string | undefined;
  let lastKey: Key | undefined;
  return {
    get(secret, make) {
      if (secret === lastSecret) return lastKey!;
      let key = keys.get(secret);
      if (key !== undefined) {
        // Moved to the end: the most recently used.
        keys.delete(secret);
        keys.set(secret, key);
      } else {
        key = make(secret);
        keys.set(secret, key);
        if (keys.size > limit) keys.delete(keys.keys().next().value!);
      }
      lastSecret = secret;
      lastKey = key;
      return key;
    },
    delete(secret) {
      keys.delete(secret);
      if (secret === lastSecret) lastSecret = lastKey = undefined;
    },
    get size() {
      return keys.size;
    },
  };
}
