/**
 * The console's API-key operations, on the signed-in person's merchant only: a key of another merchant is 404,
 * exactly as an unknown one. Each change is audited in its own transaction; revocation and rolling announce the
 * `credentials` topic so every process refuses the key at once (keys/api-keys.ts).
 */
import type { operations } from "@org/webinar-console-contract";
import { ServiceError } from "../errors";
import { rfc3339 } from "../http/rfc3339";
import type { AnswerBody, AnswerStatus } from "../http/typed-answer";
import type { AppServices } from "../services";
import { recordAudit } from "../merchants/audit-events";
import type { ConsolePerson } from "./context";

type Body<Id extends keyof operations, Status extends AnswerStatus<operations[Id]>> = AnswerBody<
  operations[Id],
  Status
>;

const keyNotFound = () => new ServiceError("API_KEY_NOT_FOUND", "no such API key of this merchant");

const minute = (date: Date | null) => (date === null ? null : rfc3339(Math.floor(date.getTime() / 60_000) * 60_000));

export async function listApiKeys(services: AppServices, person: ConsolePerson): Promise<Body<"listApiKeys", 200>> {
  const now = services.runtime.now();
  const rows = await services.db
    .selectFrom("api_keys")
    .select(["api_key", "status", "created_at", "revoked_at", "last_used_at", "revokes_at"])
    .where("merchant_id", "=", person.merchantId)
    .orderBy("created_at", "desc")
    .orderBy("api_key")
    .execute();
  return {
    items: rows.map((row) => {
      const graceEnded = row.revokes_at !== null && new Date(row.revokes_at).getTime() <= now;
      const revokedAt = row.revoked_at ?? (graceEnded ? row.revokes_at : null);
      return {
        apiKey: row.api_key,
        status: row.status === "REVOKED" || graceEnded ? "REVOKED" : "ACTIVE",
        createdAt: rfc3339(new Date(row.created_at).getTime()),
        lastUsedAt: minute(row.last_used_at === null ? null : new Date(row.last_used_at)),
        revokesAt: revokedAt === null && row.revokes_at !== null ? rfc3339(new Date(row.revokes_at).getTime()) : null,
        ...(revokedAt === null ? {} : { revokedAt: rfc3339(new Date(revokedAt).getTime()) }),
      };
    }),
  };
}

export async function createApiKey(services: AppServices, person: ConsolePerson): Promise<Body<"createApiKey", 201>> {
  const now = services.runtime.now();
  return services.db.transaction().execute(async (trx) => {
    const { apiKey, secret } = await services.apiKeys.create(person.merchantId, trx);
    await recordAudit(trx, person, now, { action: "API_KEY_CREATED", target: apiKey });
    return { apiKey, secret, createdAt: rfc3339(now) };
  });
}

/** Throws 404 unless `apiKey` is a key of the person's merchant. */
async function ownKey(services: AppServices, person: ConsolePerson, apiKey: string) {
  const row = await services.db
    .selectFrom("api_keys")
    .select(["status", "revokes_at"])
    .where("api_key", "=", apiKey)
    .where("merchant_id", "=", person.merchantId)
    .executeTakeFirst();
  if (row === undefined) throw keyNotFound();
  return row;
}

export async function revokeApiKey(
  services: AppServices,
  person: ConsolePerson,
  apiKey: string,
): Promise<Body<"revokeApiKey", 200>> {
  await ownKey(services, person, apiKey);
  const now = services.runtime.now();
  await services.changes.write("credentials", async (trx) => {
    const result = await trx
      .updateTable("api_keys")
      .set({ status: "REVOKED", revoked_at: new Date(now) })
      .where("api_key", "=", apiKey)
      .where("merchant_id", "=", person.merchantId)
      .where("status", "=", "ACTIVE")
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) await recordAudit(trx, person, now, { action: "API_KEY_REVOKED", target: apiKey });
  });
  return { apiKey, status: "REVOKED" };
}

export async function rollApiKey(
  services: AppServices,
  person: ConsolePerson,
  apiKey: string,
  graceSeconds: number,
): Promise<Body<"rollApiKey", 201>> {
  await ownKey(services, person, apiKey);
  const now = services.runtime.now();
  const revokesAt = now + graceSeconds * 1000;
  return services.changes.write("credentials", async (trx) => {
    const created = await services.apiKeys.roll(apiKey, revokesAt, trx);
    if (created === undefined) throw new ServiceError("API_KEY_REVOKED", "this API key is revoked; create a new one");
    await recordAudit(trx, person, now, {
      action: "API_KEY_ROLLED",
      target: apiKey,
      details: { newApiKey: created.apiKey, revokesAt: rfc3339(revokesAt) },
    });
    return {
      apiKey: created.apiKey,
      secret: created.secret,
      createdAt: rfc3339(now),
      previous: { apiKey, revokesAt: rfc3339(revokesAt) },
    };
  });
}
