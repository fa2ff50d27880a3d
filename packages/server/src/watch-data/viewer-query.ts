/**
 * Query viewer watch detail (queryViewerWatch) from the per-subject totals (record-session.ts): registered subjects
 * only, filtered by `uids` OR `externalUserIds` and `minWatchSeconds`, ordered by the requested sort with the uid as
 * the stable tie-breaker, one keyset page at a time (no OFFSET, no total). Each record shows the viewer's current
 * identity fields, read for the page's rows in a second statement; omitted when unset (ViewerWatchRecord).
 */
import { hash } from "node:crypto";
import { type Kysely, type NotNull, sql } from "kysely";
import type {
  PlaybackMode,
  QueryViewerWatchRequest,
  Sort,
  ViewerWatchPage,
  ViewerWatchRecord,
} from "@org/webinar-types";
import type { Database } from "../db/schema";
import { decodeCursor, encodeCursor, queryFingerprint, type CursorPosition } from "./cursor";
import type { WatchedWebinar } from "./webinar-state";

/** One row of {@link viewerPageQuery}: a registered subject's totals (its identity fields: {@link recordsOf}). */
export type SubjectRow = Awaited<ReturnType<ReturnType<typeof viewerPageQuery>["execute"]>>[number];

/** to_char's pattern of an RFC 3339 time in UTC to the second, as every time of the API is written. */
const RFC3339_SECONDS = sql.lit('YYYY-MM-DD"T"HH24:MI:SS"Z"');

/** The sort column of each order and its direction; ties are broken by uid ascending. */
const ORDER: Readonly<
  Record<Sort, { column: "total_seconds" | "last_watched_at" | "first_watched_at"; descending: boolean }>
> = {
  WATCH_SECONDS_DESC: { column: "total_seconds", descending: true },
  LAST_WATCHED_DESC: { column: "last_watched_at", descending: true },
  FIRST_WATCHED_ASC: { column: "first_watched_at", descending: false },
};

/** "Viewer 8000" from the phone's last four digits, else a stable code derived from the uid. */
export function displayNickname(uid: number, phone: string | null): string {
  return phone !== null
    ? `Viewer ${phone.slice(-4)}`
    : `Viewer ${uid.toString(36).toUpperCase().padStart(4, "0").slice(-4)}`;
}

/** A viewer's identity fields as a record shows them: the current ones. */
interface ViewerIdentity {
  external_user_id: string | null;
  phone: string | null;
  display_name: string | null;
}

/**
 * The identity fields of a page's viewers in one statement, one per row in the rows' order (a uid without a viewer
 * reads as nulls). A statement of its own rather than a join in the page query: the next page's query need not wait
 * for these lookups, which are most of a page's time in the database (an index lookup per record).
 */
async function readIdentities(
  db: Kysely<Database>,
  merchantId: string,
  rows: readonly SubjectRow[],
): Promise<ViewerIdentity[]> {
  // The uids as one text joined here: the driver writes an array parameter by appending element by element.
  const uids = rows.map((row) => row.uid).join(",");
  const { rows: identities } = await sql<ViewerIdentity>`
    select v.external_user_id, v.phone, v.display_name
    from unnest(string_to_array(${uids}, ',')::integer[]) with ordinality as page (uid, place)
    left join viewers v on v.merchant_id = ${merchantId} and v.uid = page.uid
    order by page.place
  `.execute(db);
  return identities;
}

/** A page's rows as the API's records, with their viewers' current identity fields. */
export async function recordsOf(
  db: Kysely<Database>,
  merchantId: string,
  webinarId: string,
  rows: readonly SubjectRow[],
): Promise<ViewerWatchRecord[]> {
  if (rows.length === 0) return [];
  const identities = await readIdentities(db, merchantId, rows);
  return rows.map((row, index) => toRecord(webinarId, row, identities[index]!));
}

/** A list selected as `array_to_string(list, ',')`. */
const listOf = (text: string): string[] => (text === "" ? [] : text.split(","));

/**
 * A row as the API's record. Built field by field, the optional ones assigned only when set: an export turns a
 * million rows into records, and every object spread or parsed date of a row is garbage to collect.
 */
function toRecord(webinarId: string, row: SubjectRow, identity: ViewerIdentity): ViewerWatchRecord {
  const record: ViewerWatchRecord = {
    subjectId: `sub_${hash("sha256", `${webinarId}\n${row.subject_key}`, "hex").slice(0, 20)}`,
    identityType: "REGISTERED",
    displayNickname: displayNickname(row.uid, identity.phone),
    uid: row.uid,
  } as ViewerWatchRecord;
  if (identity.external_user_id !== null) record.externalUserId = identity.external_user_id;
  if (identity.phone !== null) record.phone = identity.phone;
  if (identity.display_name !== null) record.displayName = identity.display_name;
  record.totalWatchSeconds = row.total_seconds;
  record.liveWatchSeconds = row.live_seconds;
  record.replayWatchSeconds = row.replay_seconds;
  record.sessionCount = row.session_count;
  record.firstWatchedAt = row.first_watched_at;
  record.lastWatchedAt = row.last_watched_at;
  record.deviceTypes = listOf(row.device_types) as ViewerWatchRecord["deviceTypes"];
  record.protocols = listOf(row.protocols) as ViewerWatchRecord["protocols"];
  return record;
}

/** What identifies the query for its cursors (queryViewerWatch): not pageSize; id lists as sets. */
export function fingerprintOf(request: QueryViewerWatchRequest): string {
  return queryFingerprint({
    t: request.ticketCode,
    m: request.playbackMode,
    u: [...new Set(request.uids ?? [])].sort((a, b) => a - b),
    e: [...new Set(request.externalUserIds ?? [])].sort(),
    w: request.minWatchSeconds ?? 0,
    s: request.sort,
  });
}

/** Decodes the request's cursor (WATCH_REQUEST_INVALID when it is not one of this query's). */
export function cursorOf(request: QueryViewerWatchRequest, cursorKey: Buffer): CursorPosition | undefined {
  return request.cursor === undefined ? undefined : decodeCursor(cursorKey, fingerprintOf(request), request.cursor);
}

/** Every record of the detail query in its order; a page of it: {@link viewerPageQuery}. */
function viewerRecordsQuery(
  db: Kysely<Database>,
  merchantId: string,
  webinarId: string,
  request: QueryViewerWatchRequest,
) {
  const mode: PlaybackMode = request.playbackMode;
  const { column, descending } = ORDER[request.sort];
  const uids = request.uids ?? [];
  const externalUserIds = request.externalUserIds ?? [];
  let query = db
    .selectFrom("watch_subject_totals as t")
    .select([
      "t.uid",
      "t.subject_key",
      (eb) => eb.cast<number>("t.live_seconds", "float8").as("live_seconds"),
      (eb) => eb.cast<number>("t.replay_seconds", "float8").as("replay_seconds"),
      (eb) => eb.cast<number>("t.total_seconds", "float8").as("total_seconds"),
      "t.session_count",
      // The times as the record writes them (RFC 3339, UTC, whole seconds), formatted by the database: the driver
      // would parse a timestamp into a Date per column per row only for the record to format it again.
      sql<string>`to_char(t.first_watched_at at time zone 'UTC', ${RFC3339_SECONDS})`.as("first_watched_at"),
      sql<string>`to_char(t.last_watched_at at time zone 'UTC', ${RFC3339_SECONDS})`.as("last_watched_at"),
      // The sort column's value for the cursor of the page's last row, times in epoch milliseconds.
      (column === "total_seconds"
        ? sql<number>`t.total_seconds::float8`
        : sql<number>`date_part('epoch', ${sql.ref(`t.${column}`)}) * 1000`
      ).as("sort_value"),
      // The lists as one text each, split here: the driver's parser of text[] reads them character by character,
      // and was the largest source of garbage of an export. Their values are enum names, which hold no comma.
      sql<string>`array_to_string(t.device_types, ',')`.as("device_types"),
      sql<string>`array_to_string(t.protocols, ',')`.as("protocols"),
    ])
    .where("t.webinar_id", "=", webinarId)
    .where("t.scope", "=", mode)
    .where("t.uid", "is not", null)
    .$narrowType<{ uid: NotNull }>();
  if ((request.minWatchSeconds ?? 0) > 0) query = query.where("t.total_seconds", ">=", request.minWatchSeconds!);
  if (uids.length > 0 || externalUserIds.length > 0) {
    query = query.where((eb) =>
      eb.or([
        ...(uids.length > 0 ? [eb("t.uid", "in", uids)] : []),
        ...(externalUserIds.length > 0
          ? [
              eb(
                "t.uid",
                "in",
                eb
                  .selectFrom("viewers as v")
                  .select("v.uid")
                  .where("v.merchant_id", "=", merchantId)
                  .where("v.external_user_id", "in", externalUserIds),
              ),
            ]
          : []),
      ]),
    );
  }
  return query.orderBy(`t.${column}`, descending ? "desc" : "asc").orderBy("t.uid", "asc");
}

/** The keyset page query (pageSize + 1 rows, to know whether there is a next page); exported for the benchmark's EXPLAIN. */
export function viewerPageQuery(
  db: Kysely<Database>,
  merchantId: string,
  webinarId: string,
  request: QueryViewerWatchRequest,
  after: CursorPosition | undefined,
) {
  const { column, descending } = ORDER[request.sort];
  let query = viewerRecordsQuery(db, merchantId, webinarId, request);
  if (after !== undefined) {
    const value = column === "total_seconds" ? after.value : new Date(after.value);
    // The first predicate is the index bound (the scan starts at the cursor: no OFFSET, no skipped rows read);
    // the second excludes the ties already returned (uid ascending is the tie-breaker of every sort).
    query = query
      .where(`t.${column}`, descending ? "<=" : ">=", value)
      .where((eb) => eb.or([eb(`t.${column}`, descending ? "<" : ">", value), eb("t.uid", ">", after.uid)]));
  }
  return query.limit(request.pageSize + 1);
}

/** A keyset page of {@link viewerPageQuery}'s rows, and the position after its last one when more follow. */
export interface RowPage {
  rows: SubjectRow[];
  next: CursorPosition | undefined;
}

/** One keyset page of rows; {@link recordsOf} makes them the API's records. */
export async function readRowPage(
  db: Kysely<Database>,
  merchantId: string,
  webinarId: string,
  request: QueryViewerWatchRequest,
  after: CursorPosition | undefined,
): Promise<RowPage> {
  const rows = await viewerPageQuery(db, merchantId, webinarId, request, after).execute();
  if (rows.length <= request.pageSize) return { rows, next: undefined };
  // The one row more than the page only says that another page follows.
  rows.pop();
  const last = rows.at(-1)!;
  // The cursor's value: whole watch seconds, or a time in whole epoch milliseconds.
  return { rows, next: { value: Math.trunc(last.sort_value), uid: last.uid } };
}

export async function readViewerPage(
  db: Kysely<Database>,
  merchantId: string,
  webinar: WatchedWebinar,
  request: QueryViewerWatchRequest,
  after: CursorPosition | undefined,
  cursorKey: Buffer,
): Promise<ViewerWatchPage> {
  const { rows, next } = await readRowPage(db, merchantId, webinar.id, request, after);
  const items = await recordsOf(db, merchantId, webinar.id, rows);
  if (next === undefined) return { items };
  return { items, nextCursor: encodeCursor(cursorKey, fingerprintOf(request), next) };
}
