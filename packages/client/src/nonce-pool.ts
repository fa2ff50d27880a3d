/**
 * A CSPRNG random source for `createNonce` that draws from the platform generator 4 KiB at a time. Asking the
 * generator for 16 bytes per request costs more than hashing and signing the request on Node (its argument checks
 * dominate); buffering is what Node's own `crypto.randomUUID` does. The bytes are still from the CSPRNG, each
 * used once.
 */
import type { RandomSource } from "@org/webinar-signing";

const POOL_BYTES = 4096;

/** Creates a random source that serves bytes from a pool refilled by `crypto.getRandomValues`. */
export function createPooledRandom(fill: RandomSource = (bytes) => void crypto.getRandomValues(bytes)): RandomSource {
  const pool = new Uint8Array(POOL_BYTES);
  let offset = POOL_BYTES;
  return (bytes) => {
    if (bytes.length > POOL_BYTES) {
      fill(bytes);
      return;
    }
    if (offset + bytes.length > POOL_BYTES) {
      fill(pool);
      offset = 0;
    }
    bytes.set(pool.subarray(offset, offset + bytes.length));
    // Served bytes are zeroed, so a pool that was not refilled can never serve the same bytes twice unnoticed.
    pool.fill(0, offset, offset + bytes.length);
    offset += bytes.length;
  };
}
