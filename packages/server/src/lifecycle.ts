/**
 * The one ordered list of what the server runs and how each part stops. Parts are registered as they start;
 * shutdown stops them last-started first, so nothing stops while a part started after it (and so possibly
 * using it) still runs: requests in flight are answered before the batches they queued are committed, and the
 * batches are committed before the database closes. A start that fails half-way stops, by the same list, what
 * had started.
 */

/** Something running, with how it stops. */
interface RunningPart {
  readonly name: string;
  readonly stop: () => unknown;
}

/** The parts of a server in start order; see the module comment. */
export interface Lifecycle {
  /** Registers how a part stops; it stops before every part added earlier and after every part added later. */
  add(name: string, stop: () => unknown): void;
  /** The names of the running parts in the order they stop (for tests and logs). */
  readonly stopOrder: readonly string[];
  /**
   * Stops every part, last started first, each once. Every stop runs even when one before it failed; the first
   * failure is thrown at the end.
   */
  stopAll(): Promise<void>;
}

/**
 * @example
 * const lifecycle = createLifecycle();
 * const feed = await openChangeFeed(...);
 * lifecycle.add("change feed", () => feed.close());
 * await lifecycle.stopAll();
 */
export function createLifecycle(): Lifecycle {
  const running: RunningPart[] = [];
  return {
    add(name, stop) {
      running.push({ name, stop });
    },
    get stopOrder() {
      return running.map((part) => part.name).reverse();
    },
    async stopAll() {
      let failure: { error: unknown } | undefined;
      for (let part = running.pop(); part !== undefined; part = running.pop()) {
        try {
          await part.stop();
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure !== undefined) throw failure.error;
    },
  };
}
