/**
 * Create or update external viewer (upsertViewer) in ONE statement, hence one transaction: an
 * `INSERT ... ON CONFLICT (merchant_id, external_user_id) DO UPDATE` creates the viewer, or applies the changes
 * to the existing one, and the database's unique constraints decide every race:
 *
 * | upsertViewer case                          | here                                                               |
 * |--------------------------------------------|--------------------------------------------------------------------|
 * | only externalUserId                        | inserted; or nothing to change -> the row as read by the statement |
 * | same external id, current phone            | nothing to change -> the existing viewer, created false            |
 * | same external id, unused new phone         | the conflict's update binds it; uid and external id unchanged      |
 * | phone used by another viewer               | unique violation of viewers_merchant_phone_key: 409, none written  |
 * | new external id, phone already in merchant | the insert violates the phone constraint -> 409, no merging        |
 * | phone null                                 | rejected by the validator before this runs (400)                   |
 * | repeated call                              | the existing viewer, created false (`xmax = 0` only for an insert) |
 *
 * Two concurrent creations of one external id: the second waits for the first at the arbiter index and then
 * takes the update path (created false). A phone violation can also come from such a race on the phone index
 * before the arbiter check saw the other row, so it is retried (up to PHONE_RACE_RETRIES times) before it is
 * answered 409. A UID collision
 * (primary key) draws another UID.
 */
import type { Kysely } from "kysely";
import type { Viewer } from "@org/webinar-types";
import { isUniqueViolation } from "../db/errors";
import { runStatement, statement } from "../db/statements";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";
import type { Runtime } from "../runtime";
import type { DisplayNameModerator } from "./moderation";
import { RANDOM_UID_ATTEMPTS, randomUid, searchFreeUid, type UidRange } from "./uid-allocation";

/**
 * The request body as the validator hands it over: `externalUserId` and `displayName` trimmed, and a blank
 * `phone` removed, so `phone` is a number to bind or absent (keep the current one).
 */
export interface UpsertInput {
  merchantId: string;
  externalUserId: string;
  phone?: string | undefined;
  displayName?: string | null | undefined;
}

export interface UpsertResult {
  viewer: Viewer;
  created: boolean;
}

export interface UpsertDependencies {
  db: Kysely<Database>;
  moderator: DisplayNameModerator;
  uidRange: UidRange;
  runtime: Runtime;
}

interface ViewerRow {
  uid: number;
  external_user_id: string | null;
  phone: string | null;
  display_name: string | null;
}

const PHONE_CONSTRAINT = "viewers_merchant_phone_key";
const UID_CONSTRAINT = "viewers_pkey";
/** How often a phone violation is retried before it is taken as a real conflict (see the module comment). */
const PHONE_RACE_RETRIES = 2;

function identityConflict(): ServiceError {
  return new ServiceError("VIEWER_IDENTITY_CONFLICT", "phone is bound to another viewer of this merchant");
}

function toViewer(row: ViewerRow, externalUserId: string): Viewer {
  return {
    uid: row.uid,
    externalUserId: row.external_user_id ?? externalUserId,
    phone: row.phone,
    displayName: row.display_name,
  };
}

/**
 * Inserts the viewer, or updates the existing one where something changes. `current` reads the viewer as it stood
 * when the statement began; when it exists and nothing changes, the insert is given no row, so the statement
 * writes nothing: no row lock, no WAL, and its commit waits for no flush (a repeated upsert, the usual case, is a
 * read). Otherwise the insert-or-update returns the row it wrote. No row at all: a concurrent creation committed
 * after that snapshot (the caller reads it once more). `(xmax = 0)` is true for a row this statement inserted.
 * Values: $1 merchant, $2 uid, $3 external user id, $4 the phone to bind (null keeps the current one), $5 the
 * display name, $6 now, $7 whether the request sent `displayName` (a string sets it, null clears it).
 */
const UPSERT_VIEWER = statement<ViewerRow & { inserted: boolean }>(`with current as (
  select uid, external_user_id, phone, display_name from viewers where merchant_id = $1 and external_user_id = $3
), written as (
  insert into viewers (merchant_id, uid, external_user_id, phone, display_name, created_at, updated_at)
  select $1::text, $2::integer, $3::text, $4::text, $5::text, $6::timestamptz, $6::timestamptz
  where not exists (
    select 1 from current
    where not (($4::text is not null and $4::text is distinct from current.phone)
      or ($7::boolean and $5::text is distinct from current.display_name))
  )
  on conflict (merchant_id, external_user_id) do update
  set phone = coalesce($4::text, viewers.phone),
    display_name = case when $7::boolean then $5::text else viewers.display_name end,
    updated_at = $6
  where ($4::text is not null and $4::text is distinct from viewers.phone)
    or ($7::boolean and $5::text is distinct from viewers.display_name)
  returning uid, external_user_id, phone, display_name, (xmax = 0) as inserted
)
select uid, external_user_id, phone, display_name, inserted from written
union all
select uid, external_user_id, phone, display_name, false as inserted
from current
where not exists (select 1 from written)`);

async function readByExternalId(
  db: Kysely<Database>,
  merchantId: string,
  externalUserId: string,
): Promise<ViewerRow | undefined> {
  return db
    .selectFrom("viewers")
    .select(["uid", "external_user_id", "phone", "display_name"])
    .where("merchant_id", "=", merchantId)
    .where("external_user_id", "=", externalUserId)
    .executeTakeFirst();
}

/** Upserts viewers of one database; see {@link createViewerUpserter}. */
export type ViewerUpserter = (input: UpsertInput) => Promise<UpsertResult>;

/**
 * The upsert of one server: its statement prepared once. Moderation runs first, outside any statement, so a slow
 * moderation service holds no lock (nor, on PGlite, the single connection).
 *
 * @example
 * const upsertViewer = createViewerUpserter({ db, moderator, uidRange, runtime });
 * const { viewer, created } = await upsertViewer({ merchantId, externalUserId: "crm-1", phone: "13800138000" });
 */
export function createViewerUpserter(deps: UpsertDependencies): ViewerUpserter {
  return async (input) => {
    const phone = input.phone ?? null;
    if (typeof input.displayName === "string") await deps.moderator.check(input.displayName);
    let uidCollisions = 0;
    let phoneViolations = 0;
    for (let round = 0; round < RANDOM_UID_ATTEMPTS + 32; round += 1) {
      let uid = randomUid(deps.uidRange, deps.runtime);
      if (uidCollisions >= RANDOM_UID_ATTEMPTS) {
        // Random draws keep colliding: the range is nearly full. The viewer may exist already (no UID needed).
        const existing = await readByExternalId(deps.db, input.merchantId, input.externalUserId);
        const free =
          existing === undefined
            ? await searchFreeUid(deps.db, input.merchantId, deps.uidRange, deps.runtime)
            : existing.uid;
        if (free === null)
          throw new ServiceError("VIEWER_UID_EXHAUSTED", "the merchant's viewer UID capacity is exhausted");
        uid = free;
      }
      let row: (ViewerRow & { inserted: boolean }) | undefined;
      try {
        [row] = await runStatement(deps.db, UPSERT_VIEWER, [
          input.merchantId,
          uid,
          input.externalUserId,
          phone,
          input.displayName ?? null,
          new Date(deps.runtime.now()),
          input.displayName !== undefined,
        ]);
      } catch (error) {
        if (isUniqueViolation(error, UID_CONSTRAINT)) {
          uidCollisions += 1;
          continue;
        }
        if (isUniqueViolation(error, PHONE_CONSTRAINT)) {
          if (++phoneViolations > PHONE_RACE_RETRIES) throw identityConflict();
          continue;
        }
        throw error;
      }
      if (row !== undefined) return { viewer: toViewer(row, input.externalUserId), created: row.inserted };
      const existing = await readByExternalId(deps.db, input.merchantId, input.externalUserId);
      if (existing !== undefined) return { viewer: toViewer(existing, input.externalUserId), created: false };
    }
    throw new Error("upsert: no outcome after repeated attempts (concurrent creation storm)");
  };
}
