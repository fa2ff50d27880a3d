/**
 * A suspended merchant's console over HTTP, on PGlite and on PostgreSQL (console-openapi.yaml, "Suspended
 * merchants"; admin setMerchantStatus): signIn answers 403 TENANT_SUSPENDED after the right password only (a wrong
 * one is the usual 401), acceptInvite too (the invite stays usable), every operation with a session but signOut is
 * 403 TENANT_SUSPENDED (the export of phone numbers included), and once the merchant is ACTIVE again its people sign
 * in and their sessions work as before.
 */
import { consoleOperations } from "@org/webinar-console-contract/validators";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type TestServer } from "./support/harness";
import { consolePerson, inviteToken, sampleCall, signedInPerson, STRONG_PASSWORD } from "./support/console-client";

describe.each(DATABASE_KINDS)("a suspended merchant's console on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;

  beforeAll(async () => {
    database = await openTestDatabase(kind, "console-suspension");
    api = await startTestServer(database);
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  const setStatus = async (merchantId: string, status: "ACTIVE" | "SUSPENDED") =>
    expect((await api.admin("POST", `/admin/v1/merchants/${merchantId}/status`, { status })).status).toBe(200);

  it("every operation with a session but signOut is 403 TENANT_SUSPENDED; reactivated, the same session works again", async () => {
    const merchant = await api.newMerchant();
    const owner = await signedInPerson(api, merchant.merchantId, "suspended-owner@example.com");
    await setStatus(merchant.merchantId, "SUSPENDED");
    for (const operationId of Object.keys(consoleOperations) as (keyof typeof consoleOperations)[]) {
      if (["acceptInvite", "signIn", "signOut"].includes(operationId)) continue;
      const { method, path, body } = sampleCall(operationId, merchant.ticketCode, merchant.apiKey);
      const answer = await owner.call(method, path, body);
      expect(answer.status, operationId).toBe(403);
      expect(answer.body.error.code, operationId).toBe("TENANT_SUSPENDED");
    }
    await setStatus(merchant.merchantId, "ACTIVE");
    expect((await owner.call("GET", "/console/api/api-keys")).status).toBe(200);
    await setStatus(merchant.merchantId, "SUSPENDED");
    expect((await owner.call("POST", "/console/api/session/sign-out", {})).status).toBe(200);
  });

  it("signIn: 403 TENANT_SUSPENDED for the right password only; acceptInvite 403 with the invite kept; reactivated, both work", async () => {
    const merchant = await api.newMerchant();
    await signedInPerson(api, merchant.merchantId, "suspended-signin@example.com");
    const invite = await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/console-users`, {
      email: "suspended-invitee@example.com",
      role: "ANALYST",
    });
    await setStatus(merchant.merchantId, "SUSPENDED");
    const signIn = (password: string) =>
      consolePerson(api).call("POST", "/console/api/session", { email: "suspended-signin@example.com", password });
    const wrong = await signIn("not the password");
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_SIGN_IN_FAILED" } } });
    const right = await signIn(STRONG_PASSWORD);
    expect(right).toMatchObject({ status: 403, body: { error: { code: "TENANT_SUSPENDED" } } });
    expect(right.headers.getSetCookie()).toEqual([]);
    const accept = () =>
      consolePerson(api).call("POST", "/console/api/session/invite", {
        token: inviteToken(invite.body.inviteUrl),
        password: STRONG_PASSWORD,
      });
    expect((await accept()).body.error.code).toBe("TENANT_SUSPENDED");
    await setStatus(merchant.merchantId, "ACTIVE");
    expect((await signIn(STRONG_PASSWORD)).status).toBe(200);
    expect((await accept()).status).toBe(200);
  });
});
