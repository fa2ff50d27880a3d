/**
 * Console passwords, hashed with scrypt from node:crypto: memory-hard (N = 2^15, r = 8: 32 MiB per hash), a
 * random 16-byte salt each, the parameters stored with the hash so they can be raised later without breaking
 * stored hashes. Verification compares in constant time. A password is never logged or kept anywhere else.
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import type { Runtime } from "../runtime";

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
// scrypt needs 128 * N * r bytes; Node's default limit (32 MiB) is exactly that, so allow headroom.
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/**
 * `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>`.
 *
 * @example
 * const stored = await hashPassword("correct horse battery", systemRuntime);
 */
export async function hashPassword(password: string, runtime: Runtime): Promise<string> {
  const salt = runtime.randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` is the one `stored` was made from; false for a malformed stored value. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to verify against when there is no user, so an unknown email takes as long as a wrong password. */
export const DECOY_PASSWORD_HASH = `scrypt$${N}$${R}$${P}$AAAAAAAAAAAAAAAAAAAAAA$${"A".repeat(43)}`;
