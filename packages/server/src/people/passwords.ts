/**
 * Console passwords, hashed with scrypt from node:crypto at OWASP's parameters (N = 2^17, r = 8, p = 1: 128 MiB
 * and about half a second of a pool thread per hash), a random 16-byte salt each, the parameters stored with the
 * hash: a hash made with other parameters still verifies, says it is `outdated`, and the sign-in that proved the
 * password replaces it. Verification compares in constant time. A password is never logged or kept anywhere else.
 *
 * scrypt runs on libuv's thread pool, which the rest of the server (file reads, DNS, crypto) shares; a flood of
 * sign-ins must not take all of it. So a hasher runs at most `atOnce` hashes at a time, lines up a bounded number
 * more, and refuses beyond that with 429 CONSOLE_BUSY (http/concurrency-limit.ts).
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import { ServiceError } from "../errors";
import { createConcurrencyLimit } from "../http/concurrency-limit";
import type { Runtime } from "../runtime";

/** scrypt's work factors: CPU and memory (`N`, a power of two), block size (`r`), parallelism (`p`). */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP's parameters, the default. */
export const OWASP_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_BYTES = 32;
/** scrypt needs 128 * N * r bytes (128 MiB at OWASP's cost); Node refuses above 32 MiB unless told, so allow headroom. */
const MAX_MEMORY = 256 * 1024 * 1024;
/** Hashes that may wait for a turn, per hash running at once; beyond them a sign-in is refused. */
const WAITING_PER_RUNNING = 16;

export interface PasswordHasher {
  /**
   * `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>` of today's parameters.
   *
   * @example
   * const stored = await hasher.hash("correct horse battery staple");
   */
  hash(password: string): Promise<string>;
  /**
   * Whether `password` is the one `stored` was made from (false for a malformed stored value), and whether
   * `stored` was made with other parameters than today's. Without a stored hash (an unknown email, a person who
   * has not chosen a password), the same work is done against a decoy, so the answer takes as long.
   */
  verify(password: string, stored: string | null | undefined): Promise<{ matches: boolean; outdated: boolean }>;
}

export interface PasswordHasherOptions {
  runtime: Pick<Runtime, "randomBytes">;
  /** Hashes computed at the same time, at most. */
  atOnce: number;
  /** Hashes that may wait for a turn; beyond them a hash is refused (default: 16 per hash at once). */
  waiting?: number;
  /** Told as each hash starts and ends (the metrics count them). */
  observe?: (event: "start" | "end") => void;
  /**
   * Today's parameters (default OWASP's). A cheaper cost is for tests only: it makes stolen hashes cheaper to
   * guess. A hash made with other parameters than today's is `outdated`.
   */
  cost?: ScryptCost | undefined;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/** The hasher of one server process. */
export function createPasswordHasher({
  runtime,
  atOnce,
  waiting = atOnce * WAITING_PER_RUNNING,
  observe,
  cost: { N, r: R, p: P } = OWASP_SCRYPT_COST,
}: PasswordHasherOptions): PasswordHasher {
  /** A stored value to verify against when there is none, with today's parameters (so it costs as much). */
  const decoy = `scrypt$${N}$${R}$${P}$AAAAAAAAAAAAAAAAAAAAAA$${"A".repeat(43)}`;
  const limit = createConcurrencyLimit({
    running: atOnce,
    waiting,
    refuse: () =>
      new ServiceError("CONSOLE_BUSY", "the server is checking many passwords at once; try again in a moment", {
        retryAfterSeconds: 1,
      }),
  });
  const measured = (password: string, salt: Buffer, n: number, r: number, p: number) =>
    limit.run("", async () => {
      observe?.("start");
      try {
        return await derive(password, salt, n, r, p);
      } finally {
        observe?.("end");
      }
    });
  return {
    async hash(password) {
      const salt = runtime.randomBytes(16);
      const key = await measured(password, salt, N, R, P);
      return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
    },
    async verify(password, stored) {
      const [scheme, n, r, p, salt, hash] = (stored ?? decoy).split("$");
      if (scheme !== "scrypt" || salt === undefined || hash === undefined) return { matches: false, outdated: true };
      const expected = Buffer.from(hash, "base64url");
      const key = await measured(password, Buffer.from(salt, "base64url"), Number(n), Number(r), Number(p));
      const matches =
        stored !== null && stored !== undefined && key.length === expected.length && timingSafeEqual(key, expected);
      return { matches, outdated: Number(n) !== N || Number(r) !== R || Number(p) !== P };
    },
  };
}
