/**
 * Where the hashes are computed. Web Crypto runs in every runtime, but each call is a round trip through a
 * thread pool (tens of microseconds); node:crypto, which Node, Bun and Deno provide, answers synchronously in
 * about two. node:crypto is reached through `process.getBuiltinModule`, which no bundler follows, so this entry
 * stays free of Node imports and still runs in browsers and Workers. Both backends agree on every vector of
 * spec/test-vectors/signing.json; the tests run each of them.
 */

/** The implementation that computes hashes: node:crypto (synchronous) or Web Crypto. */
export type CryptoBackend = "node" | "web";

/** `auto` picks node:crypto when the runtime offers it, Web Crypto otherwise. */
export type CryptoPreference = CryptoBackend | "auto";

/** The part of node:crypto the signing code uses. */
export interface NodeCrypto {
  /** One-shot digest (Node 20.12+): no Hash object per call. `binary` is latin1 text, a character per byte. */
  hash?(algorithm: "sha256", data: Uint8Array | string, encoding: "hex" | "binary"): string;
  createHash(algorithm: "sha256"): { update(data: Uint8Array | string, encoding?: "utf8"): { digest(encoding: "hex"): string } };
  createHmac(algorithm: "sha256", key: unknown): { update(data: string, encoding: "utf8"): { digest(encoding: "hex"): string } };
  createSecretKey(key: Uint8Array): unknown;
}

let detected: NodeCrypto | null | undefined;

/** node:crypto of the running runtime, or undefined where there is none (browsers, Workers). */
export function builtinNodeCrypto(): NodeCrypto | undefined {
  if (detected === undefined) {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const module = runtime?.getBuiltinModule?.("node:crypto") as Partial<NodeCrypto> | undefined;
    detected = typeof module?.createHmac === "function" ? (module as NodeCrypto) : null;
  }
  return detected ?? undefined;
}

/** node:crypto when `preference` allows it and the runtime has it; undefined means Web Crypto. */
export function chooseNodeCrypto(preference: CryptoPreference): NodeCrypto | undefined {
  if (preference === "web") return undefined;
  const nodeCrypto = builtinNodeCrypto();
  if (nodeCrypto === undefined && preference === "node") {
    throw new TypeError('crypto backend "node" needs a runtime that provides node:crypto (Node, Bun, Deno)');
  }
  return nodeCrypto;
}
