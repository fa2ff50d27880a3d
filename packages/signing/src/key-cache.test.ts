import { describe, expect, it } from "vitest";
import { createKeyCache } from "./key-cache";

describe("createKeyCache", () => {
  it("makes a secret's key once and returns it until it is evicted", () => {
    const cache = createKeyCache<{ secret: string }>(2);
    let made = 0;
    const make = (secret: string) => ({ secret, made: ++made });
    const first = cache.get("a", make);
    expect(cache.get("a", make)).toBe(first);
    expect(made).toBe(1);
  });

  it("stays within its limit, evicting the least recently used secret", () => {
    const cache = createKeyCache<string>(2);
    const make = (secret: string) => `key-of-${secret}`;
    cache.get("a", make);
    cache.get("b", make);
    cache.get("a", make); // a is now more recent than b
    cache.get("c", make); // evicts b
    expect(cache.size).toBe(2);
    let remade = "";
    cache.get("a", (secret) => (remade += secret));
    cache.get("b", (secret) => (remade += secret));
    expect(remade).toBe("b");
  });

  it("forgets a deleted secret", () => {
    const cache = createKeyCache<number>(4);
    cache.get("a", () => 1);
    cache.delete("a");
    expect(cache.size).toBe(0);
    expect(cache.get("a", () => 2)).toBe(2);
  });

  it("answers repeated use of the latest secret without disturbing the order of eviction", () => {
    const cache = createKeyCache<string>(2);
    const made: string[] = [];
    const make = (secret: string) => {
      made.push(secret);
      return `key-of-${secret}`;
    };
    cache.get("a", make);
    cache.get("b", make);
    expect(cache.get("b", make)).toBe("key-of-b");
    cache.get("c", make); // evicts a, the least recently used
    cache.get("b", make);
    cache.get("a", make);
    expect(made).toEqual(["a", "b", "c", "a"]);
  });
});
