/**
 * The clock and the randomness every module takes as parameters (CONTRIBUTING.md: inject, never mock globals).
 * Tests pass their own; production uses `systemRuntime`.
 */
import { randomBytes, randomInt } from "node:crypto";

export interface Runtime {
  /** Current time in milliseconds since the Unix epoch. */
  now(): number;
  /** `size` bytes from a CSPRNG. */
  randomBytes(size: number): Buffer;
  /** A uniformly random integer in [min, max] (both inclusive), from a CSPRNG. */
  randomInt(min: number, max: number): number;
}

/** The real clock and node:crypto. */
export const systemRuntime: Runtime = {
  now: () => Date.now(),
  randomBytes: (size) => randomBytes(size),
  randomInt: (min, max) => randomInt(min, max + 1),
};

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` characters of [0-9A-Za-z] without modulo bias (rejection sampling over random bytes). */
export function randomBase62(runtime: Runtime, length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of runtime.randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
