/**
 * Demo data on the first start with an empty database (issue item 3): a merchant, an API key and a published
 * webinar, so the server is usable right away. The secret exists in plaintext only in the value returned here,
 * which main.ts prints once to stdout (never to the log); later starts find the `demo` marker in server_meta
 * and print only the base URL, the merchant id and the ticketCode.
 *
 * The marker row is inserted first with ON CONFLICT DO NOTHING inside the seeding transaction, so two processes
 * starting together on one empty PostgreSQL database seed once.
 */
import type { Kysely } from "kysely";
import type { ApiKeyStore } from "../auth/api-keys";
import type { Database } from "../db/schema";
import { randomBase62, type Runtime } from "../runtime";
import { newTicketCode } from "../admin/webinars";

export type DemoSeed =
  | { kind: "created"; merchantId: string; apiKey: string; secret: string; ticketCode: string }
  | { kind: "existing"; merchantId: string; ticketCode: string }
  | { kind: "none" };

const MARKER = "demo";

/** Creates the demo data if this is the first start with an empty database; otherwise reports what exists. */
export async function seedDemo(db: Kysely<Database>, apiKeys: ApiKeyStore, runtime: Runtime): Promise<DemoSeed> {
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
      await trx.updateTable("server_meta").set({ value: "skipped: the database already held merchants" }).where("key", "=", MARKER).execute();
      return { kind: "none" };
    }
    const now = new Date(runtime.now());
    const merchantId = `mch_${randomBase62(runtime, 16)}`;
    const ticketCode = newTicketCode(runtime);
    await trx.insertInto("merchants").values({ id: merchantId, name: "Demo merchant", watch_origin: null, status: "ACTIVE", created_at: now }).execute();
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
    await trx.updateTable("server_meta").set({ value: JSON.stringify({ merchantId, ticketCode }) }).where("key", "=", MARKER).execute();
    return { kind: "created", merchantId, apiKey, secret, ticketCode };
  });
}

/** The text printed to stdout at start: everything needed to try the API on the first start, the ids later. */
export function demoBanner(seed: DemoSeed, baseUrl: string): string {
  if (seed.kind === "none") return `Webinar reference server listening on ${baseUrl}\n`;
  if (seed.kind === "existing") {
    return [
      `Webinar reference server listening on ${baseUrl}`,
      `  demo merchant ${seed.merchantId}, demo webinar ticketCode ${seed.ticketCode} (watch page ${baseUrl}/w/${seed.ticketCode})`,
      `  The demo API secret was shown on the first start only; create a new key with POST /admin/v1/merchants/${seed.merchantId}/api-keys.`,
      "",
    ].join("\n");
  }
  const { merchantId, apiKey, secret, ticketCode } = seed;
  return `
Webinar reference server listening on ${baseUrl}

First start: demo data created.
  merchant     ${merchantId}
  API key      ${apiKey}
  API secret   ${secret}
  webinar      ${ticketCode} (published; watch page ${baseUrl}/w/${ticketCode})

The secret is shown this once: copy it now. It is stored encrypted and never printed or logged again.

Try it with @org/webinar-client:

  import { createWebinarClient } from "@org/webinar-client";

  const client = createWebinarClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: ${JSON.stringify(apiKey)}, secret: ${JSON.stringify(secret)} });
  const { viewer } = await client.upsertViewer({ externalUserId: "demo-1" });
  const { loginUrl } = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: ${JSON.stringify(ticketCode)} });
  console.log(loginUrl);

or with the command line tool (from this repository; in your own project, after
"npm install @org/webinar-client", use "npx webinar"):

  WEBINAR_BASE_URL=${baseUrl} WEBINAR_API_KEY=${apiKey} WEBINAR_API_SECRET='${secret}' pnpm exec webinar upsert --external-user-id demo-1

`;
}
