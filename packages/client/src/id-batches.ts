/**
 * Splits any number of viewer ids into requests the detail query accepts: `uids` and `externalUserIds` together hold
 * at most `limits.maxCombinedIds` items, duplicates counted (`queryViewerWatch`, the spec's Limits), so duplicates go
 * first.
 */
import { limits } from "@org/webinar-types";

/** The id filter of one request. An empty list is omitted from the request, never sent as `[]`. */
export interface IdBatch {
  uids?: number[];
  externalUserIds?: string[];
}

/**
 * Deduplicates the ids (external ids are case-sensitive, compared exactly) and cuts them into batches of at most
 * `maxCombined` ids, uids first. No ids at all gives no batch: an empty filter would match every viewer.
 *
 * @example
 * planIdBatches({ uids: [10001, 10001, 10002], externalUserIds: ["crm-1"] }, 2);
 * // [{ uids: [10001, 10002] }, { externalUserIds: ["crm-1"] }]
 */
export function planIdBatches(
  ids: { uids?: readonly number[] | undefined; externalUserIds?: readonly string[] | undefined },
  maxCombined: number = limits.maxCombinedIds,
): IdBatch[] {
  if (!Number.isInteger(maxCombined) || maxCombined < 1)
    throw new RangeError(`maxCombined must be a positive integer, got ${maxCombined}`);
  const entries: ({ uid: number } | { externalUserId: string })[] = [
    ...[...new Set(ids.uids ?? [])].map((uid) => ({ uid })),
    ...[...new Set(ids.externalUserIds ?? [])].map((externalUserId) => ({ externalUserId })),
  ];
  const batches: IdBatch[] = [];
  for (let start = 0; start < entries.length; start += maxCombined) {
    const batch: IdBatch = {};
    for (const entry of entries.slice(start, start + maxCombined)) {
      if ("uid" in entry) batch.uids = [...(batch.uids ?? []), entry.uid];
      else batch.externalUserIds = [...(batch.externalUserIds ?? []), entry.externalUserId];
    }
    batches.push(batch);
  }
  return batches;
}
