/**
 * Two-step sign-in over HTTP, on PGlite and on PostgreSQL (console-openapi.yaml: startTwoFactorEnrollment,
 * confirmTwoFactorEnrollment, signIn's `code`, disableTwoFactor, regenerateRecoveryCodes, setTwoFactorRequirement),
 * with the codes an authenticator app computes (otpauth, at the server's injected clock): enrollment with a QR code
 * of the `otpauth://` URL, 401 CONSOLE_SECOND_FACTOR_REQUIRED without a code, a wrong code counted as a failure, a
 * code never accepted twice, recovery codes used once, the merchant's requirement, and no secret or code in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type Merchant, type TestServer } from "./support/harness";
import { consolePerson, signedInPerson, STRONG_PASSWORD, totpCode } from "./support/console-client";
import { testClock } from "./support/test-clock";

const STEP_SECONDS = 30;
const THROTTLE_WINDOW_SECONDS = 15 * 60;

describe.each(DATABASE_KINDS)("two-step sign-in on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;
  const clock = testClock();

  beforeAll(async () => {
    database = await openTestDatabase(kind, "console-two-factor");
    api = await startTestServer(database, {}, { runtime: clock });
    merchant = await api.newMerchant();
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  /** A signed-in person with two-step sign-in on: the secret and the recovery codes. */
  async function enrolled(email: string, role: "OWNER" | "ANALYST" = "OWNER") {
    const person = await signedInPerson(api, merchant.merchantId, email, role);
    const started = await person.call("POST", "/console/api/me/two-factor/enrollment", {});
    const confirmed = await person.call("POST", "/console/api/me/two-factor/enrollment/confirm", {
      code: totpCode(started.body.secret, clock.now()),
    });
    expect(confirmed.status).toBe(200);
    return { person, secret: started.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  }

  const signIn = (email: string, code?: string, password = STRONG_PASSWORD) =>
    consolePerson(api).call("POST", "/console/api/session", {
      email,
      password,
      ...(code === undefined ? {} : { code }),
    });

  it("startTwoFactorEnrollment answers the secret, its otpauth:// URL and a QR code of it; a wrong code is 400 and the enrollment stays open", async () => {
    const person = await signedInPerson(api, merchant.merchantId, "enroll@example.com");
    const early = await person.call("POST", "/console/api/me/two-factor/enrollment/confirm", { code: "123456" });
    expect(early).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_TWO_FACTOR_NOT_STARTED" } } });
    const started = await person.call("POST", "/console/api/me/two-factor/enrollment", {});
    expect(started.status).toBe(200);
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(started.body.otpauthUrl);
    expect([url.protocol, url.host, decodeURIComponent(url.pathname)]).toEqual([
      "otpauth:",
      "totp",
      "/Webinar console:enroll@example.com",
    ]);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      secret: started.body.secret,
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
    expect(started.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(started.body.qrCode.split(",")[1], "base64").toString("utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const wrongCode = totpCode(started.body.secret, clock.now() + 10 * STEP_SECONDS * 1000);
    const wrong = await person.call("POST", "/console/api/me/two-factor/enrollment/confirm", { code: wrongCode });
    expect(wrong).toMatchObject({ status: 400, body: { error: { code: "CONSOLE_TWO_FACTOR_CODE_INVALID" } } });
    expect((await person.call("GET", "/console/api/me")).body.twoFactor).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: 0,
    });
    const confirmed = await person.call("POST", "/console/api/me/two-factor/enrollment/confirm", {
      code: totpCode(started.body.secret, clock.now()),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    for (const code of confirmed.body.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    expect((await person.call("GET", "/console/api/me")).body.twoFactor).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });
    const people = (await person.call("GET", "/console/api/people")).body.items;
    expect(people).toContainEqual(expect.objectContaining({ email: "enroll@example.com", twoFactor: true }));
  });

  it("signIn: the right password without a code is 401 CONSOLE_SECOND_FACTOR_REQUIRED; a wrong code 401 CONSOLE_SIGN_IN_FAILED; the right one signs in, once", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    const { secret } = await enrolled("totp@example.com");
    clock.advance(STEP_SECONDS);
    const noCode = await signIn("totp@example.com");
    expect(noCode).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_SECOND_FACTOR_REQUIRED" } } });
    expect(noCode.headers.getSetCookie()).toEqual([]);
    const wrongPassword = await signIn("totp@example.com", totpCode(secret, clock.now()), "not the password");
    expect(wrongPassword.body.error.code).toBe("CONSOLE_SIGN_IN_FAILED");
    const wrongCode = await signIn("totp@example.com", totpCode(secret, clock.now() + 5 * STEP_SECONDS * 1000));
    expect(wrongCode).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_SIGN_IN_FAILED" } } });
    const code = totpCode(secret, clock.now());
    const right = await signIn("totp@example.com", code);
    expect(right).toMatchObject({ status: 200, body: { email: "totp@example.com", twoFactor: { enabled: true } } });
    const replayed = await signIn("totp@example.com", code);
    expect(replayed).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_SIGN_IN_FAILED" } } });
    clock.advance(STEP_SECONDS);
    expect((await signIn("totp@example.com", totpCode(secret, clock.now()))).status).toBe(200);
  });

  it("wrong codes count as failures: the 6th attempt from the address is 429, even with the right code", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    const { secret } = await enrolled("guessed@example.com");
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await signIn(
        "guessed@example.com",
        String((Number(totpCode(secret, clock.now())) + 1) % 1_000_000).padStart(6, "0"),
      );
      expect(wrong.status).toBe(401);
    }
    const throttled = await signIn("guessed@example.com", totpCode(secret, clock.now()));
    expect(throttled).toMatchObject({ status: 429, body: { error: { code: "CONSOLE_SIGN_IN_THROTTLED" } } });
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a recovery code signs in in place of a code, once; new codes replace the old ones", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    const { person, recoveryCodes } = await enrolled("recovery@example.com");
    const used = recoveryCodes[0]!;
    const first = await signIn("recovery@example.com", used.toUpperCase());
    expect(first).toMatchObject({ status: 200, body: { twoFactor: { recoveryCodesLeft: 9 } } });
    const again = await signIn("recovery@example.com", used);
    expect(again).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_SIGN_IN_FAILED" } } });
    const renewed = await person.call("POST", "/console/api/me/two-factor/recovery-codes", {});
    expect(renewed.status).toBe(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    expect((await signIn("recovery@example.com", recoveryCodes[1]!.replaceAll("-", ""))).status).toBe(401);
    expect((await signIn("recovery@example.com", renewed.body.recoveryCodes[0])).status).toBe(200);
  });

  it("disableTwoFactor turns it off (audited): signIn needs no code again; without two-step, new recovery codes are 409", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    const { person } = await enrolled("disable@example.com");
    const off = await person.call("POST", "/console/api/me/two-factor/disable", {});
    expect(off).toMatchObject({ status: 200, body: { enabled: false, recoveryCodesLeft: 0 } });
    expect((await signIn("disable@example.com")).status).toBe(200);
    const codes = await person.call("POST", "/console/api/me/two-factor/recovery-codes", {});
    expect(codes).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_TWO_FACTOR_NOT_ENABLED" } } });
    const actions = (await person.call("GET", "/console/api/audit-events")).body.items.map(
      (event: { action: string; target: string }) => `${event.action} ${event.target}`,
    );
    expect(actions.slice(0, 2)).toEqual([
      "TWO_FACTOR_DISABLED disable@example.com",
      "TWO_FACTOR_ENABLED disable@example.com",
    ]);
  });

  it("an OWNER requires two-step sign-in of everyone: a person without it can only enroll, and nobody can turn it off", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    const required = await api.newMerchant();
    const owner = await signedInPerson(api, required.merchantId, "requiring@example.com");
    const early = await owner.call("POST", "/console/api/people/two-factor-requirement", { required: true });
    expect(early).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_TWO_FACTOR_NOT_ENABLED" } } });
    const started = await owner.call("POST", "/console/api/me/two-factor/enrollment", {});
    await owner.call("POST", "/console/api/me/two-factor/enrollment/confirm", {
      code: totpCode(started.body.secret, clock.now()),
    });
    const set = await owner.call("POST", "/console/api/people/two-factor-requirement", { required: true });
    expect(set).toMatchObject({ status: 200, body: { twoFactorRequired: true } });
    expect((await owner.call("GET", "/console/api/people")).body.twoFactorRequired).toBe(true);
    const off = await owner.call("POST", "/console/api/me/two-factor/disable", {});
    expect(off).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_TWO_FACTOR_MANDATORY" } } });

    const analyst = await signedInPerson(api, required.merchantId, "must-enroll@example.com", "ANALYST");
    const me = await analyst.call("GET", "/console/api/me");
    expect(me.body).toMatchObject({ enrollmentRequired: true, twoFactor: { enabled: false, required: true } });
    for (const path of ["/console/api/api-keys", "/console/api/webinars", "/console/api/people"]) {
      const refused = await analyst.call("GET", path);
      expect(refused, path).toMatchObject({
        status: 403,
        body: { error: { code: "CONSOLE_TWO_FACTOR_ENROLLMENT_REQUIRED" } },
      });
    }
    expect((await analyst.call("GET", "/console/api/me/sessions")).status).toBe(200);
    const enrollment = await analyst.call("POST", "/console/api/me/two-factor/enrollment", {});
    expect(enrollment.status).toBe(200);
    await analyst.call("POST", "/console/api/me/two-factor/enrollment/confirm", {
      code: totpCode(enrollment.body.secret, clock.now()),
    });
    expect((await analyst.call("GET", "/console/api/api-keys")).status).toBe(200);
    expect((await analyst.call("GET", "/console/api/me")).body.enrollmentRequired).toBe(false);
  });

  it("removal clears a person's two-step sign-in; the log holds no secret, code, recovery code or password", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    const owner = await signedInPerson(api, merchant.merchantId, "remover@example.com");
    const { person, secret, recoveryCodes } = await enrolled("removed-2fa@example.com");
    const userId = (person as unknown as { userId: string }).userId;
    expect((await owner.call("POST", `/console/api/people/${userId}/remove`, {})).status).toBe(200);
    const row = await database.handle.db
      .selectFrom("console_users")
      .select(["totp_secret_sealed", "totp_pending_secret_sealed"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ totp_secret_sealed: null, totp_pending_secret_sealed: null });
    const codes = await database.handle.db
      .selectFrom("console_recovery_codes")
      .select("code_hash")
      .where("user_id", "=", userId)
      .execute();
    expect(codes).toEqual([]);
    const log = api.logs.text;
    for (const secretText of [secret, ...recoveryCodes, STRONG_PASSWORD]) expect(log).not.toContain(secretText);
  });
});
