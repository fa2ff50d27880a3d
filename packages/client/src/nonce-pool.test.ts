import { createNonce, isValidNonce } from "@org/webinar-signing";
import { describe, expect, it } from "vitest";
import { createPooledRandom } from "./nonce-pool";

describe("createPooledRandom", () => {
  it("§5.1 serves createNonce: 32 lowercase hex characters, all distinct across several refills", () => {
    const random = createPooledRandom();
    const nonces = Array.from({ length: 1000 }, () => createNonce(random));
    expect(nonces.every((nonce) => isValidNonce(nonce) && /^[0-9a-f]{32}$/.test(nonce))).toBe(true);
    expect(new Set(nonces).size).toBe(1000);
  });

  it("draws from the CSPRNG 4 KiB at a time, and never serves a byte twice", () => {
    let calls = 0;
    let counter = 0;
    const random = createPooledRandom((bytes) => {
      calls += 1;
      for (let index = 0; index < bytes.length; index += 1) bytes[index] = counter++ % 251;
    });
    const served: number[] = [];
    for (let index = 0; index < 512; index += 1) {
      const bytes = new Uint8Array(16);
      random(bytes);
      served.push(...bytes);
    }
    expect(calls).toBe(2);
    expect(served).toEqual(Array.from({ length: 8192 }, (_, index) => index % 251));
  });

  it("a request larger than the pool goes to the CSPRNG directly", () => {
    const sizes: number[] = [];
    const random = createPooledRandom((bytes) => void sizes.push(bytes.length));
    random(new Uint8Array(5000));
    expect(sizes).toEqual([5000]);
  });
});
