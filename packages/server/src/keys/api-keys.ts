/**
 * API keys and their secrets (the `ApiKey` security scheme of spec/openapi.yaml). The admin API creates and revokes
 * them. The verifier reads a key's credential (its opened secret, merchant and merchant status) from memory; a
 * revocation or a merchant's status change announces the `credentials` topic (cache/change-feed.ts), so it is
 * refused at once by the process that made the change and within a second by every other.
 */
import type { Kysely, Transaction } from "kysely";
import { createSigner, type Signer } from "@org/webinar-signing";
import type { ChangeFeed } from "../cache/change-feed";
import { createReadThroughCache } from "../cache/read-through-cache";
import type { Database, MerchantStatus } from "../db/schema";
import { randomBase62, type Runtime } from "../runtime";
import type { SecretBox } from "./secret-box";

/** What the verifier needs to know about a presented key. */
export interface Credential {
  apiKey: string;
  /** The plaintext secret, opened from its sealed form. */
  secret: string;
  /** The secret's HMAC key, prepared once (what the verifier checks signatures with). */
  signer: Signer;
  merchantId: string;
  merchantStatus: MerchantStatus;
  /** When a rolled key stops working (epoch milliseconds); null for a key not rolled. */
  revokesAt: number | null;
}

export interface ApiKeyStore {
  /**
   * Creates a key for the merchant and returns it with its secret; the secret is never readable again.
   * `executor` runs the insert inside a caller's transaction.
   */
  create(
    merchantId: string,
    executor?: Kysely<Database> | Transaction<Database>,
  ): Promise<{ apiKey: string; secret: string }>;
  /** Revokes a key; false when there is no such key. Idempotent. */
  revoke(apiKey: string): Promise<boolean>;
  /** The active key's credential, or null for an unknown or revoked key, or a rolled key past its grace. */
  findActive(apiKey: string): Promise<Credential | null>;
  /**
   * Rolls a key: a new key of the same merchant now, and the old one stops working at `revokesAt` (epoch
   * milliseconds). False when the old key is not active.
   */
  roll(
    apiKey: string,
    revokesAt: number,
    executor: Transaction<Database>,
  ): Promise<{ apiKey: string; secret: string } | undefined>;
}

/** `wk_live_` + 20 base62 characters, the shape of the spec's examples. */
function newApiKey(runtime: Runtime): string {
  return `wk_live_${randomBase62(runtime, 20)}`;
}

/**
 * `wsk_live_` + 32 random bytes as base64url (43 characters): raw text for HMAC, distinct from the key (Signing
 * requests). The prefix means a secret never starts with `-` (a command line would take it for an option) and lets
 * secret scanners recognize a leaked one. The whole text is the HMAC key; secrets issued before the prefix have
 * none and keep working, since a secret is used exactly as it was issued.
 */
export const SECRET_PREFIX = "wsk_live_";

function newSecret(runtime: Runtime): string {
  return `${SECRET_PREFIX}${runtime.randomBytes(32).toString("base64url")}`;
}

/** How many keys' credentials are kept in memory. */
const KEPT_CREDENTIALS = 10_000;

export function createApiKeyStore(
  db: Kysely<Database>,
  box: SecretBox,
  runtime: Runtime,
  changes: ChangeFeed,
): ApiKeyStore {
  const credentials = createReadThroughCache<string, Credential>({
    feed: changes,
    topic: "credentials",
    max: KEPT_CREDENTIALS,
    load: async (apiKey) => {
      const row = await db
        .selectFrom("api_keys as k")
        .innerJoin("merchants as m", "m.id", "k.merchant_id")
        .select(["k.secret_sealed", "k.merchant_id", "k.revokes_at", "m.status as merchant_status"])
        .where("k.api_key", "=", apiKey)
        .where("k.status", "=", "ACTIVE")
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const secret = box.open(row.secret_sealed, apiKey);
      return {
        apiKey,
        secret,
        signer: createSigner(secret),
        merchantId: row.merchant_id,
        merchantStatus: row.merchant_status,
        revokesAt: row.revokes_at === null ? null : new Date(row.revokes_at).getTime(),
      };
    },
  });
  const store: ApiKeyStore = {
    async create(merchantId, executor = db) {
      const apiKey = newApiKey(runtime);
      const secret = newSecret(runtime);
      await executor
        .insertInto("api_keys")
        .values({
          api_key: apiKey,
          merchant_id: merchantId,
          secret_sealed: box.seal(secret, apiKey),
          status: "ACTIVE",
          created_at: new Date(runtime.now()),
          revoked_at: null,
        })
        .execute();
      return { apiKey, secret };
    },
    revoke: (apiKey) =>
      changes.write("credentials", async (trx) => {
        const result = await trx
          .updateTable("api_keys")
          .set({ status: "REVOKED", revoked_at: new Date(runtime.now()) })
          .where("api_key", "=", apiKey)
          .where("status", "=", "ACTIVE")
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) return true;
        const exists = await trx
          .selectFrom("api_keys")
          .select("api_key")
          .where("api_key", "=", apiKey)
          .executeTakeFirst();
        return exists !== undefined;
      }),
    findActive: async (apiKey) => {
      const credential = await credentials.get(apiKey);
      if (credential === undefined) return null;
      // A rolled key's grace ends by the clock, in every process alike, without any write.
      return credential.revokesAt !== null && credential.revokesAt <= runtime.now() ? null : credential;
    },
    async roll(apiKey, revokesAt, trx) {
      const old = await trx
        .updateTable("api_keys")
        .set({ revokes_at: new Date(revokesAt) })
        .where("api_key", "=", apiKey)
        .where("status", "=", "ACTIVE")
        .where((eb) => eb.or([eb("revokes_at", "is", null), eb("revokes_at", ">", new Date(runtime.now()))]))
        .returning("merchant_id")
        .executeTakeFirst();
      if (old === undefined) return undefined;
      return store.create(old.merchant_id, trx);
    },
  };
  return store;
}
