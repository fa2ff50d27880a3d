/**
 * Create or update external viewer (spec §4.3) in ONE statement, hence one transaction: an
 * `INSERT ... ON CONFLICT (merchant_id, external_user_id) DO UPDATE` creates the viewer, or applies the changes
 * to the existing one, and the database's unique constraints decide every race:
 *
 * | §4.3 case                                   | here                                                                  |
 * |---------------------------------------------|-----------------------------------------------------------------------|
 * | only externalUserId                         | inserted; or nothing to change -> the row as read by the statement    |
 * | same external id, current phone             | nothing to change -> the existing viewer, created false               |
 * | same external id, unused new phone          | the conflict's update binds it; uid and external id unchanged         |
 * | phone used by another viewer                | unique violation of viewers_merchant_phone_key -> 409, nothing written |
 * | new external id, phone already in merchant  | the insert violates the phone constraint -> 409, no merging           |
 * | phone null                                  | rejected by the validator before this runs (400)                      |
 * | repeated call                               | the existing viewer, created false (`xmax = 0` only for an insert)    |
 *
 * Two concurrent creations of one external id: the second waits for the first at the arbiter index and then
 * takes the update path (created false). A phone violation can also come from such a race on the phone index
 * before the arbiter check saw the other row, so it is retried once before it is answered 409. A UID collision
 * (primary key) draws another UID.
 */
import type { Kysely } from "kysely";
import type { Viewer } from "@org/webinar-types";
import { StaleCredentialError } from "../auth/credential-cache";
import { claimCtes, claimParameters, NonceReplayedError, type NonceClaim } from "../auth/nonce-claim";
import { statement } from "../db/compiled";
import { isUniqueViolation } from "../db/errors";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";
import type { Runtime } from "../runtime";
import type { DisplayNameModerator } from "./moderation";
import { RANDOM_UID_ATTEMPTS, randomUid, searchFreeUid, type UidRange } from "./uid-allocation";

/** The validated request body of upsert (strings already trimmed by the validator). */
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
  return { uid: row.uid, externalUserId: row.external_user_id ?? externalUserId, phone: row.phone, displayName: row.display_name };
}

/** The phone to bind, or null to keep the current one (omitted, empty or whitespace-only, §4.3). */
function phoneToBind(phone: string | undefined): string | null {
  const trimmed = phone?.trim();
  return trimmed === undefined || trimmed === "" ? null : trimmed;
}

// $1 merchant, $2 uid, $3 external id, $4 phone to bind (null: keep), $5 display name, $6 whether the display
// name was sent (omitted keeps it), $7 now. The insert-or-update returns the row it wrote; when the viewer exists
// and nothing changes it writes nothing, and the second branch returns the row as it stood when the statement
// began, so every usual case is one round trip. No row at all: a concurrent creation committed after that
// snapshot (the caller reads it once more).
const upsertRow = statement<ViewerRow & { inserted: boolean }>(`
  with written as (
    insert into viewers as v (merchant_id, uid, external_user_id, phone, display_name, created_at, updated_at)
    values ($1, $2, $3, $4::text, $5::text, $7, $7)
    on conflict (merchant_id, external_user_id) do update
      set phone = coalesce($4::text, v.phone),
          display_name = case when $6::boolean then $5::text else v.display_name end,
          updated_at = $7
      where ($4::text is not null and $4::text is distinct from v.phone)
         or ($6::boolean and $5::text is distinct from v.display_name)
    returning uid, external_user_id, phone, display_name, (xmax = 0) as inserted
  )
  select * from written
  union all
  select uid, external_user_id, phone, display_name, false from viewers
  where merchant_id = $1 and external_user_id = $3 and not exists (select 1 from written)
`);

// The same with the request's nonce consumed in the statement ($8-$10, auth/nonce-claim.ts): the viewer is
// written only when the nonce was inserted now, by a key and merchant still ACTIVE. Always one row.
const upsertRowClaimingNonce = statement<Partial<ViewerRow & { inserted: boolean }> & { key_active: boolean; fresh: boolean }>(`
  with ${claimCtes(8)},
  written as (
    insert into viewers as v (merchant_id, uid, external_user_id, phone, display_name, created_at, updated_at)
    select $1::text, $2::integer, $3::text, $4::text, $5::text, $7::timestamptz, $7::timestamptz from consumed
    on conflict (merchant_id, external_user_id) do update
      set phone = coalesce($4::text, v.phone),
          display_name = case when $6::boolean then $5::text else v.display_name end,
          updated_at = $7::timestamptz
      where ($4::text is not null and $4::text is distinct from v.phone)
         or ($6::boolean and $5::text is distinct from v.display_name)
    returning uid, external_user_id, phone, display_name, (xmax = 0) as inserted
  ), found as (
    select uid, external_user_id, phone, display_name, inserted from written
    union all
    select uid, external_user_id, phone, display_name, false from viewers
    where merchant_id = $1::text and external_user_id = $3::text and exists (select 1 from consumed) and not exists (select 1 from written)
  )
  select (select active from key_state) as key_active, exists (select 1 from consumed) as fresh, found.*
  from (select 1) as one left join found on true
`);

const readRow = statement<ViewerRow>("select uid, external_user_id, phone, display_name from viewers where merchant_id = $1 and external_user_id = $2");

/** Inserts the viewer, or updates the existing one where something changes (undefined: exists, nothing to change). */
async function upsertStatement(db: Kysely<Database>, input: UpsertInput, uid: number, phone: string | null, now: Date, claim?: NonceClaim): Promise<(ViewerRow & { inserted: boolean }) | undefined> {
  const parameters = [input.merchantId, uid, input.externalUserId, phone, input.displayName ?? null, input.displayName !== undefined, now];
  if (claim === undefined || claim.consumed) {
    const [row] = await upsertRow(db, parameters);
    return row;
  }
  const [row] = await upsertRowClaimingNonce(db, [...parameters, ...claimParameters(claim)]);
  if (row?.key_active !== true) throw new StaleCredentialError(claim.apiKey, claim.nonce);
  if (row.fresh !== true) throw new NonceReplayedError();
  claim.consumed = true;
  return row.uid === undefined || row.uid === null ? undefined : (row as ViewerRow & { inserted: boolean });
}

async function readByExternalId(db: Kysely<Database>, merchantId: string, externalUserId: string): Promise<ViewerRow | undefined> {
  const [row] = await readRow(db, [merchantId, externalUserId]);
  return row;
}

/**
 * Runs one upsert. Moderation runs first, outside any statement, so a slow moderation service holds no lock
 * (nor, on PGlite, the single connection). With `claim` (a display name never: the caller consumes the nonce
 * before moderation) the first statement that writes also consumes the request's nonce.
 *
 * @example
 * const { viewer, created } = await upsertViewer({ merchantId, externalUserId: "crm-1", phone: "13800138000" }, deps);
 */
export async function upsertViewer(input: UpsertInput, deps: UpsertDependencies, claim?: NonceClaim): Promise<UpsertResult> {
  const phone = phoneToBind(input.phone);
  const displayName = typeof input.displayName === "string" ? input.displayName.trim() : input.displayName;
  const normalized: UpsertInput = { ...input, displayName };
  if (typeof displayName === "string") {
    await claim?.consumeSeparately(); // the replay answer comes before moderation's
    await deps.moderator.check(displayName);
  }

  let uidCollisions = 0;
  let phoneViolations = 0;
  for (let round = 0; round < RANDOM_UID_ATTEMPTS + 32; round += 1) {
    let uid = randomUid(deps.uidRange, deps.runtime);
    if (uidCollisions >= RANDOM_UID_ATTEMPTS) {
      // Random draws keep colliding: the range is nearly full. The viewer may exist already (no UID needed).
      const existing = await readByExternalId(deps.db, input.merchantId, input.externalUserId);
      const free = existing === undefined ? await searchFreeUid(deps.db, input.merchantId, deps.uidRange, deps.runtime) : existing.uid;
      if (free === null) throw new ServiceError("VIEWER_UID_EXHAUSTED", "the merchant's viewer UID capacity is exhausted");
      uid = free;
    }
    let row: (ViewerRow & { inserted: boolean }) | undefined;
    try {
      row = await upsertStatement(deps.db, normalized, uid, phone, new Date(deps.runtime.now()), claim);
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
}
