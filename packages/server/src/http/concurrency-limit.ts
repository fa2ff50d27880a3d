/**
 * A bound on how much of one kind of work runs at once in this process, per key (a merchant) or for the whole
 * process (one key): up to `running` at once, up to `waiting` more in line in arrival order, and beyond that the
 * work is refused at once with the caller's error (a 429 with `Retry-After`), so a flood costs the server a
 * refusal, not a line that grows without end. The console bounds its exports and charts per merchant with it, and
 * password hashing for the whole process, which would otherwise take every thread of the pool the rest of the
 * server needs.
 */

export interface ConcurrencyLimitOptions {
  running: number;
  waiting: number;
  /** The error a refused acquisition throws. */
  refuse: () => Error;
}

/** Gives a slot back once the work is done (calling it again does nothing). */
export type Release = () => void;

export interface ConcurrencyLimit {
  /** A slot of `key` now, or once one is free; throws `refuse()` when `waiting` are already in line. */
  acquire(key?: string): Promise<Release>;
  /** Runs `work` in a slot of `key`. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

interface Line {
  running: number;
  waiting: Array<() => void>;
}

/**
 * @example
 * const exports = createConcurrencyLimit({ running: 4, waiting: 0, refuse: () => new Error("busy") });
 * const release = await exports.acquire(merchantId);
 * try { await work(); } finally { release(); }
 */
export function createConcurrencyLimit(options: ConcurrencyLimitOptions): ConcurrencyLimit {
  const lines = new Map<string, Line>();
  const slot = (key: string, line: Line): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes to the first in line, or is freed.
      const next = line.waiting.shift();
      if (next !== undefined) return next();
      line.running -= 1;
      if (line.running === 0) lines.delete(key);
    };
  };
  const acquire = async (key = "") => {
    const line = lines.get(key) ?? { running: 0, waiting: [] };
    lines.set(key, line);
    if (line.running < options.running) {
      line.running += 1;
      return slot(key, line);
    }
    if (line.waiting.length >= options.waiting) throw options.refuse();
    await new Promise<void>((resolve) => line.waiting.push(resolve));
    return slot(key, line);
  };
  return {
    acquire,
    async run(key, work) {
      const release = await acquire(key);
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
