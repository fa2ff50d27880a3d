/**
 * The audit list of a merchant: who changed which API key, webinar, person or sign-in rule, and when. Every change
 * writes its event in the transaction of the change itself, so the list never misses or invents one. The console
 * reads the list (listAuditEvents); the actions are the document's `AuditAction`.
 */
import type { Kysely, Transaction } from "kysely";
import type { components } from "@org/webinar-console-contract";
import type { Database } from "../db/schema";

export type AuditAction = components["schemas"]["AuditAction"];

/** Who made a change: a person of the merchant, or the operator through the admin API (`userId` null). */
export interface AuditActor {
  merchantId: string;
  userId: string | null;
}

/** Records one change by `actor` in `trx` (the change's own transaction). */
export async function recordAudit(
  trx: Kysely<Database> | Transaction<Database>,
  actor: AuditActor,
  at: number,
  event: { action: AuditAction; target: string; details?: Record<string, unknown> },
): Promise<void> {
  await trx
    .insertInto("console_audit_events")
    .values({
      merchant_id: actor.merchantId,
      actor_user_id: actor.userId,
      action: event.action,
      target: event.target,
      details: JSON.stringify(event.details ?? {}),
      occurred_at: new Date(at),
    })
    .execute();
}
