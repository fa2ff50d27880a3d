/**
 * A bounded read-through cache of one change topic (change-feed.ts): a value is read from memory while the feed
 * is listening, else from `load`; a change of its topic (here or in another process) clears it. A read that was
 * in flight when the cache was cleared is answered but not kept, so a value read before a change never outlives
 * it. `undefined` (nothing found) is never kept: whatever is created later is found at once.
 */
import { LRUCache } from "lru-cache";
import type { ChangeFeed, ChangeTopic } from "./change-feed";

export interface ReadThroughCache<K, V> {
  get(key: K): Promise<V | undefined>;
}

export interface ReadThroughOptions<K, V> {
  feed: ChangeFeed;
  topic: ChangeTopic;
  /** How many values are kept; the least recently used goes first. */
  max: number;
  load(key: K): Promise<V | undefined>;
}

export function createReadThroughCache<K extends {}, V extends {}>(
  options: ReadThroughOptions<K, V>,
): ReadThroughCache<K, V> {
  const { feed, topic, load } = options;
  const values = new LRUCache<K, V>({ max: options.max });
  let generation = 0;
  feed.subscribe((signal) => {
    if (signal !== topic && signal !== "all") return;
    generation += 1;
    values.clear();
  });
  return {
    async get(key) {
      if (!feed.listening) {
        feed.noteRead(topic, false);
        return load(key);
      }
      const kept = values.get(key);
      feed.noteRead(topic, kept !== undefined);
      if (kept !== undefined) return kept;
      const readIn = generation;
      const value = await load(key);
      if (value !== undefined && readIn === generation && feed.listening) values.set(key, value);
      return value;
    },
  };
}
