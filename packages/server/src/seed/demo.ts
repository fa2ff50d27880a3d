/**
 * Demo data on the first start with an empty database: a merchant, an API key, a published webinar and a console
 * user (an OWNER) with an invite link, so the server is usable right away. The secret exists in plaintext only in the value returned here, which the start
 * block prints once to stdout (never to the log) and seed/demo-credentials.ts saves in the data directory; later
 * starts find the `demo` marker in server_meta and report the ids only.
 *
 * The marker row is inserted first with ON CONFLICT DO NOTHING inside the seeding transaction, so two processes
 * starting together on one empty PostgreSQL database seed once.
 */
import type { Kysely } from "kysely";
import type { ApiKeyStore } from "../keys/api-keys";
import type { Database } from "../db/schema";
import { randomBase62, type Runtime } from "../runtime";
import { newTicketCode } from "../webinars/webinar-changes";
import { issueInvite } from "../people/invites";

export type DemoSeed =
  | {
      kind: "created";
      merchantId: string;
      apiKey: string;
      secret: string;
      ticketCode: string;
      /** The demo console user (an OWNER) and the token of their invite link (people/invites.ts). */
      consoleEmail: string;
      consoleInviteToken: string;
    }
  | { kind: "existing"; merchantId: string; ticketCode: string }
  | { kind: "none" };

const MARKER = "demo";

/** The demo console user's email. */
export const DEMO_CONSOLE_EMAIL = "demo@example.com";

/** Creates the demo data if this is the first start with an empty database; otherwise reports what exists. */
export async function seedDemo(
  db: Kysely<Database>,
  apiKeys: ApiKeyStore,
  runtime: Runtime,
  inviteTtlSeconds: number,
): Promise<DemoSeed> {
  return db.transaction().execute(async (trx): Promise<DemoSeed> => {
    const claimed = await trx
      .insertInto("server_meta")
      .values({ key: MARKER, value: "pending" })
      .onConflict((conflict) => conflict.column("key").doNothing())
      .returning("key")
      .executeTakeFirst();
    if (claimed === undefined) {
      const marker = await trx.selectFrom("server_meta").select("value").where("key", "=", MARKER).executeTakeFirst();
      if (marker === undefined || !marker.value.startsWith("{")) return { kind: "none" };
      const { merchantId, ticketCode } = JSON.parse(marker.value) as { merchantId: string; ticketCode: string };
      return { kind: "existing", merchantId, ticketCode };
    }
    const anyMerchant = await trx.selectFrom("merchants").select("id").limit(1).executeTakeFirst();
    if (anyMerchant !== undefined) {
      await trx
        .updateTable("server_meta")
        .set({ value: "skipped: the database already held merchants" })
        .where("key", "=", MARKER)
        .execute();
      return { kind: "none" };
    }
    const now = new Date(runtime.now());
    const merchantId = `mch_${randomBase62(runtime, 16)}`;
    const ticketCode = newTicketCode(runtime);
    await trx
      .insertInto("merchants")
      .values({ id: merchantId, name: "Demo merchant", watch_origin: null, status: "ACTIVE", created_at: now })
      .execute();
    const { apiKey, secret } = await apiKeys.create(merchantId, trx);
    await trx
      .insertInto("webinars")
      .values({
        id: `wbi_${randomBase62(runtime, 16)}`,
        merchant_id: merchantId,
        ticket_code: ticketCode,
        title: "Demo webinar",
        status: "PUBLISHED",
        live_status: "NOT_STARTED",
        live_started_at: null,
        live_ended_at: null,
        live_finalized_at: null,
        created_at: now,
      })
      .execute();
    await trx
      .updateTable("server_meta")
      .set({ value: JSON.stringify({ merchantId, ticketCode }) })
      .where("key", "=", MARKER)
      .execute();
    const invite = await issueInvite(
      trx,
      runtime,
      inviteTtlSeconds,
      { merchantId, userId: null },
      { email: DEMO_CONSOLE_EMAIL },
    );
    return {
      kind: "created",
      merchantId,
      apiKey,
      secret,
      ticketCode,
      consoleEmail: DEMO_CONSOLE_EMAIL,
      consoleInviteToken: invite.token,
    };
  });
}
