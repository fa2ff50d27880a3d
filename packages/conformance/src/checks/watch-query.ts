/**
 * Reading the detail query (queryViewerWatch) the way a client does: one page, or every page of a query walked
 * with the previous `nextCursor` unchanged. `LIVE` and `ALL` may be gated by 409 `WATCH_DATA_NOT_FINAL` while live
 * data is not final; `REPLAY` never is.
 */
import type {
  PlaybackMode,
  QueryViewerWatchRequest,
  Sort,
  ViewerWatchPage,
  ViewerWatchRecord,
} from "@org/webinar-types";
import type { Answer } from "../answer";
import { CheckFailure, dataOf, expectError, expectSuccess } from "../check";
import type { Credentials } from "../credentials";
import type { RunContext } from "../run-context";

export type QueryFields = Omit<QueryViewerWatchRequest, "ticketCode">;

/** The fields that narrow a query to some viewers. */
export type QueryFilter = Pick<QueryFields, "uids" | "externalUserIds" | "minWatchSeconds">;

/** Which webinar to query, as which merchant: by default the run's webinar with the main key. */
export interface QueryTarget {
  ticketCode?: string;
  credentials?: Credentials;
}

export function query(
  context: RunContext,
  fields: QueryFields,
  ticketCode = context.options.ticketCode,
  credentials?: Credentials,
): Promise<Answer> {
  return context.call({
    operationId: "queryViewerWatch",
    body: { ticketCode, ...fields },
    ...(credentials === undefined ? {} : { credentials }),
  });
}

/** Thrown when live data is not final yet, so a walk over `LIVE` or `ALL` cannot run now. */
export class NotFinalYet extends Error {}

/** One page that must be a success, or (`LIVE`, `ALL`) `WATCH_DATA_NOT_FINAL`, which throws {@link NotFinalYet}. */
export async function pageOf(
  context: RunContext,
  fields: QueryFields,
  target: QueryTarget = {},
): Promise<ViewerWatchPage> {
  const answer = await query(context, fields, target.ticketCode, target.credentials);
  if (answer.status === 409 && fields.playbackMode !== "REPLAY") {
    expectError(answer, 409, ["WATCH_DATA_NOT_FINAL"]);
    throw new NotFinalYet();
  }
  expectSuccess(answer);
  const page = dataOf<ViewerWatchPage>(answer);
  if (page.items.length > fields.pageSize)
    throw new CheckFailure(`a page of pageSize ${fields.pageSize} holds ${page.items.length} items`);
  return page;
}

/** The records of a query, page by page, until the last page or `limit` records. */
export async function walk(
  context: RunContext,
  mode: PlaybackMode,
  sort: Sort,
  pageSize: number,
  limit: number,
  target: QueryTarget & { filter?: QueryFilter } = {},
): Promise<{ items: ViewerWatchRecord[]; complete: boolean }> {
  const items: ViewerWatchRecord[] = [];
  let cursor: string | undefined;
  // Each page brings at least one record or ends the walk, so this many pages always suffice.
  for (let pages = 0; pages <= limit; pages += 1) {
    const fields = {
      playbackMode: mode,
      sort,
      pageSize,
      ...target.filter,
      ...(cursor === undefined ? {} : { cursor }),
    };
    const page = await pageOf(context, fields, target);
    items.push(...page.items);
    if (page.nextCursor === undefined) return { items, complete: true };
    if (page.items.length === 0) throw new CheckFailure(`an empty page (pageSize ${pageSize}) still has a nextCursor`);
    if (items.length >= limit) return { items, complete: false };
    cursor = page.nextCursor;
  }
  throw new CheckFailure(`${limit} pages of pageSize ${pageSize} did not end`);
}

/** Whether `a` may stand before `b` in `sort`: ties are the server's to break. */
export function inOrder(sort: Sort, a: ViewerWatchRecord, b: ViewerWatchRecord): boolean {
  if (sort === "WATCH_SECONDS_DESC") return a.totalWatchSeconds >= b.totalWatchSeconds;
  if (sort === "LAST_WATCHED_DESC") return Date.parse(a.lastWatchedAt) >= Date.parse(b.lastWatchedAt);
  return Date.parse(a.firstWatchedAt) <= Date.parse(b.firstWatchedAt);
}
