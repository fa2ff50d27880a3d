/**
 * Merchants and their API keys, as the admin API (admin-openapi.yaml) manages them. Suspension and revocation
 * announce the `credentials` topic (cache/change-feed.ts): every process reads the key's credential anew.
 */
import type { Kysely } from "kysely";
import type { ChangeFeed } from "../cache/change-feed";
import type { Database, MerchantStatus } from "../db/schema";
import { ServiceError } from "../errors";
import type { ApiKeyStore } from "../keys/api-keys";
import { randomBase62, type Runtime } from "../runtime";

/** What a change of a merchant needs: the database, the clock and randomness, the change feed and the key store. */
export interface MerchantContext {
  db: Kysely<Database>;
  runtime: Runtime;
  changes: ChangeFeed;
  apiKeys: ApiKeyStore;
}

function merchantNotFound(merchantId: string): ServiceError {
  return new ServiceError("MERCHANT_NOT_FOUND", `no merchant ${merchantId}`);
}

/** Creates a merchant; `watchOrigin` is its custom watch domain, used in its login URLs. */
export async function createMerchant(
  ctx: MerchantContext,
  input: { name: string; watchOrigin?: string },
): Promise<{ merchantId: string }> {
  const merchantId = `mch_${randomBase62(ctx.runtime, 16)}`;
  await ctx.db
    .insertInto("merchants")
    .values({
      id: merchantId,
      name: input.name.trim(),
      watch_origin: input.watchOrigin === undefined ? null : new URL(input.watchOrigin).origin,
      status: "ACTIVE",
      created_at: new Date(ctx.runtime.now()),
    })
    .execute();
  return { merchantId };
}

export async function setMerchantStatus(
  ctx: MerchantContext,
  merchantId: string,
  status: MerchantStatus,
): Promise<{ merchantId: string; status: MerchantStatus }> {
  const result = await ctx.changes.write("credentials", (trx) =>
    trx.updateTable("merchants").set({ status }).where("id", "=", merchantId).executeTakeFirst(),
  );
  if (result.numUpdatedRows === 0n) throw merchantNotFound(merchantId);
  return { merchantId, status };
}

export async function createApiKey(
  ctx: MerchantContext,
  merchantId: string,
): Promise<{ apiKey: string; secret: string }> {
  const merchant = await ctx.db.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst();
  if (merchant === undefined) throw merchantNotFound(merchantId);
  return ctx.apiKeys.create(merchantId);
}

export async function revokeApiKey(
  ctx: MerchantContext,
  apiKey: string,
): Promise<{ apiKey: string; status: "REVOKED" }> {
  if (!(await ctx.apiKeys.revoke(apiKey))) throw new ServiceError("API_KEY_NOT_FOUND", "no such API key");
  return { apiKey, status: "REVOKED" };
}
