/**
 * The audit list of a merchant: who changed which key or webinar, when. Every console change writes its event in
 * the transaction of the change itself, so the list never misses or invents one.
 */
import type { Kysely, Transaction } from "kysely";
import type { operations } from "./console-openapi.gen";
import type { Database } from "../db/schema";
import { rfc3339 } from "../tickets/issue";
import type { ConsolePerson } from "./context";
import { decodeCursor, encodeCursor } from "./page-cursor";

type AuditPage = operations["listAuditEvents"]["responses"]["200"]["content"]["application/json"];
export type AuditAction = AuditPage["items"][number]["action"];

const PAGE_SIZE = 50;

/** Records one change by `person`. */
export async function recordAudit(
  trx: Kysely<Database> | Transaction<Database>,
  person: ConsolePerson,
  at: number,
  event: { action: AuditAction; target: string; details?: Record<string, unknown> },
): Promise<void> {
  await trx
    .insertInto("console_audit_events")
    .values({
      merchant_id: person.merchantId,
      actor_user_id: person.userId,
      action: event.action,
      target: event.target,
      details: JSON.stringify(event.details ?? {}),
      occurred_at: new Date(at),
    })
    .execute();
}

/** A page of the merchant's events, newest first. */
export async function listAuditEvents(
  db: Kysely<Database>,
  merchantId: string,
  cursor: string | undefined,
): Promise<Omit<AuditPage, "requestId">> {
  const after = decodeCursor(cursor, ["string"]);
  let query = db
    .selectFrom("console_audit_events as e")
    .leftJoin("console_users as u", "u.id", "e.actor_user_id")
    .select((eb) => [
      eb.cast<string>("e.id", "text").as("event_id"),
      "e.occurred_at",
      "e.action",
      "e.target",
      "e.details",
      "u.id as user_id",
      "u.email",
    ])
    .where("e.merchant_id", "=", merchantId)
    .orderBy("e.id", "desc")
    .limit(PAGE_SIZE + 1);
  if (after !== undefined) query = query.where("e.id", "<", String(after[0]));
  const rows = await query.execute();
  const items = rows.slice(0, PAGE_SIZE).map((row) => ({
    eventId: row.event_id,
    at: rfc3339(new Date(row.occurred_at).getTime()),
    actor: row.user_id === null || row.email === null ? null : { userId: row.user_id, email: row.email },
    action: row.action as AuditAction,
    target: row.target,
    details: row.details,
  }));
  const last = items.at(-1);
  return rows.length > PAGE_SIZE && last !== undefined
    ? { items, nextCursor: encodeCursor([last.eventId]) }
    : { items };
}
