/**
 * listAuditEvents: the merchant's audit list (merchants/audit-events.ts writes it), newest first, in pages.
 */
import type { Kysely } from "kysely";
import type { operations } from "@org/webinar-console-contract";
import type { Database } from "../db/schema";
import { rfc3339 } from "../http/rfc3339";
import type { AuditAction } from "../merchants/audit-events";
import { decodeCursor, encodeCursor } from "./page-cursor";

type AuditPage = operations["listAuditEvents"]["responses"]["200"]["content"]["application/json"];

const PAGE_SIZE = 50;

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
