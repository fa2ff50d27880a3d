/**
 * People and sessions of the console API (console-openapi.yaml) over HTTP, on PGlite and on PostgreSQL: invites
 * (one use, expiry, a weak password keeps the invite usable, a new invite resets the password), sign-in (one answer
 * for a wrong password and an unknown email), throttling (429 with Retry-After, per account and per address),
 * sessions (cookie attributes, sign out, sign out everywhere, sliding idle expiry), the Origin check of unsafe
 * requests, and roles (an ANALYST reads and changes nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleOperations } from "../src/console/console-validators.gen.js";
import { consoleTable } from "../src/console/operations";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type Merchant, type TestServer } from "./support/harness";
import { consolePerson, inviteToken, sampleCall, signedInPerson, STRONG_PASSWORD } from "./support/console-client";
import { testClock } from "./support/test-clock";

const IDLE_SECONDS = 3600;
const THROTTLE_WINDOW_SECONDS = 15 * 60;

describe.each(DATABASE_KINDS)("console sessions on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;
  const clock = testClock();

  beforeAll(async () => {
    database = await openTestDatabase(kind, "console-sessions");
    api = await startTestServer(
      database,
      { WEBINAR_CONSOLE_SESSION_IDLE_SECONDS: String(IDLE_SECONDS), WEBINAR_CONSOLE_INVITE_TTL_SECONDS: "86400" },
      { runtime: clock },
    );
    merchant = await api.newMerchant();
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  /** Forgets earlier failed sign-ins: they leave the throttling window. */
  const pastThrottleWindow = () => clock.advance(THROTTLE_WINDOW_SECONDS + 1);

  const invite = async (email: string, role?: "OWNER" | "ANALYST") => {
    const answer = await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/console-users`, {
      email,
      ...(role === undefined ? {} : { role }),
    });
    expect(answer.status).toBe(201);
    return answer.body as { userId: string; inviteUrl: string; expiresAt: string };
  };

  describe("invites (admin createConsoleUser, acceptInvite)", () => {
    it("the admin API answers 201 {userId, inviteUrl}: <origin>/console/invite#token=<token>", async () => {
      const answer = await invite("invited@example.com");
      expect(answer.userId).toMatch(/^cu_/);
      expect(answer.inviteUrl).toMatch(new RegExp(`^${api.url}/console/invite#token=inv_[A-Za-z0-9_-]{43}$`));
      expect(Date.parse(answer.expiresAt) - clock.now()).toBeGreaterThan(86_390_000);
    });

    it("an invite for an unknown merchant is 404, an email of another merchant's person 409", async () => {
      const unknown = await api.admin("POST", "/admin/v1/merchants/mch_nobody/console-users", {
        email: "x@example.com",
      });
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: "MERCHANT_NOT_FOUND" } } });
      const other = await api.newMerchant();
      await invite("taken@example.com");
      const taken = await api.admin("POST", `/admin/v1/merchants/${other.merchantId}/console-users`, {
        email: "TAKEN@example.com",
      });
      expect(taken).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_EMAIL_TAKEN" } } });
    });

    it("a weak password is 400 and leaves the invite usable; the invite then works once", async () => {
      const { inviteUrl } = await invite("weak@example.com");
      const person = consolePerson(api);
      const token = inviteToken(inviteUrl);
      const weak = await person.call("POST", "/console/api/session/invite", { token, password: "short-pw1" });
      expect(weak.status).toBe(400);
      expect(weak.body.error.code).toBe("REQUEST_INVALID");
      expect(weak.body.error.details.errors[0]).toMatchObject({ pointer: "/password", rule: "minLength" });
      const accepted = await person.call("POST", "/console/api/session/invite", { token, password: STRONG_PASSWORD });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({ email: "weak@example.com", role: "OWNER", language: null });
      expect(accepted.body.merchant.merchantId).toBe(merchant.merchantId);
      const again = await consolePerson(api).call("POST", "/console/api/session/invite", {
        token,
        password: STRONG_PASSWORD,
      });
      expect(again).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_INVITE_INVALID" } } });
    });

    it("an expired invite and an unknown token are 401 CONSOLE_INVITE_INVALID", async () => {
      const { inviteUrl } = await invite("late@example.com");
      clock.advance(86_401);
      const expired = await consolePerson(api).call("POST", "/console/api/session/invite", {
        token: inviteToken(inviteUrl),
        password: STRONG_PASSWORD,
      });
      expect(expired).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_INVITE_INVALID" } } });
      const unknown = await consolePerson(api).call("POST", "/console/api/session/invite", {
        token: "inv_not-a-real-token",
        password: STRONG_PASSWORD,
      });
      expect(unknown).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_INVITE_INVALID" } } });
    });

    it("a new invite resets a forgotten password: the old one stops working, the person's sessions end", async () => {
      const first = await signedInPerson(api, merchant.merchantId, "forgetful@example.com");
      expect((await first.call("GET", "/console/api/me")).status).toBe(200);
      const { inviteUrl } = await invite("forgetful@example.com");
      const reset = await consolePerson(api).call("POST", "/console/api/session/invite", {
        token: inviteToken(inviteUrl),
        password: "a brand new password",
      });
      expect(reset.status).toBe(200);
      expect((await first.call("GET", "/console/api/me")).status).toBe(401);
      pastThrottleWindow();
      const old = await consolePerson(api).call("POST", "/console/api/session", {
        email: "forgetful@example.com",
        password: STRONG_PASSWORD,
      });
      expect(old.status).toBe(401);
      const renewed = await consolePerson(api).call("POST", "/console/api/session", {
        email: "forgetful@example.com",
        password: "a brand new password",
      });
      expect(renewed.status).toBe(200);
    });
  });

  describe("sign-in and sessions", () => {
    it("signIn sets an HttpOnly, SameSite=Strict cookie on Path=/console; getMe answers the person", async () => {
      await signedInPerson(api, merchant.merchantId, "cookie@example.com");
      pastThrottleWindow();
      const person = consolePerson(api);
      const answer = await person.call("POST", "/console/api/session", {
        email: "Cookie@Example.com",
        password: STRONG_PASSWORD,
      });
      expect(answer.status).toBe(200);
      const cookie = answer.headers.getSetCookie().find((value) => value.startsWith("webinar_console="));
      expect(cookie).toMatch(
        /^webinar_console=cs_[A-Za-z0-9_-]+; Path=\/console; Max-Age=\d+; HttpOnly; SameSite=Strict$/,
      );
      const me = await person.call("GET", "/console/api/me");
      expect(me).toMatchObject({ status: 200, body: { email: "cookie@example.com", role: "OWNER" } });
    });

    it("a wrong password and an unknown email answer the same 401 CONSOLE_SIGN_IN_FAILED", async () => {
      pastThrottleWindow();
      await signedInPerson(api, merchant.merchantId, "known@example.com");
      const wrong = await consolePerson(api).call("POST", "/console/api/session", {
        email: "known@example.com",
        password: "not the password",
      });
      const unknown = await consolePerson(api).call("POST", "/console/api/session", {
        email: "unknown@example.com",
        password: "not the password",
      });
      for (const answer of [wrong, unknown]) {
        expect(answer.status).toBe(401);
        expect(answer.body.error).toEqual({
          code: "CONSOLE_SIGN_IN_FAILED",
          message: "the email or the password is wrong",
        });
        expect(answer.headers.getSetCookie()).toEqual([]);
      }
    });

    it("signOut ends the session; signOutEverywhere ends every session of the person", async () => {
      const one = await signedInPerson(api, merchant.merchantId, "twice@example.com");
      pastThrottleWindow();
      const two = consolePerson(api);
      await two.call("POST", "/console/api/session", { email: "twice@example.com", password: STRONG_PASSWORD });
      const three = consolePerson(api);
      await three.call("POST", "/console/api/session", { email: "twice@example.com", password: STRONG_PASSWORD });
      const stale = one.cookie;
      const out = await one.call("POST", "/console/api/session/sign-out", {});
      expect(out).toMatchObject({ status: 200, body: { signedOut: true, sessionsEnded: 1 } });
      expect(out.headers.getSetCookie()[0]).toMatch(/^webinar_console=; Path=\/console; Max-Age=0;/);
      expect((await consolePerson(api, stale).call("GET", "/console/api/me")).status).toBe(401);
      expect((await two.call("GET", "/console/api/me")).status).toBe(200);
      const everywhere = await two.call("POST", "/console/api/session/sign-out-everywhere", {});
      expect(everywhere).toMatchObject({ status: 200, body: { signedOut: true, sessionsEnded: 2 } });
      expect((await three.call("GET", "/console/api/me")).status).toBe(401);
    });

    it("a session slides with each request and ends after the idle time without one", async () => {
      const person = await signedInPerson(api, merchant.merchantId, "idle@example.com");
      clock.advance(IDLE_SECONDS * 0.75);
      expect((await person.call("GET", "/console/api/me")).status).toBe(200);
      clock.advance(IDLE_SECONDS * 0.75);
      expect((await person.call("GET", "/console/api/me")).status).toBe(200);
      clock.advance(IDLE_SECONDS + 1);
      const expired = await person.call("GET", "/console/api/me");
      expect(expired).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_UNAUTHORIZED" } } });
    });

    it("every operation but the sign-in steps is 401 CONSOLE_UNAUTHORIZED without a session", async () => {
      const anonymous = consolePerson(api);
      for (const operationId of Object.keys(consoleOperations) as (keyof typeof consoleOperations)[]) {
        if (consoleTable[operationId].access === "public") continue;
        const { method, path, body } = sampleCall(operationId, merchant.ticketCode, merchant.apiKey);
        const answer = await anonymous.call(method, path, body);
        expect(answer.status, operationId).toBe(401);
        expect(answer.body.error.code, operationId).toBe("CONSOLE_UNAUTHORIZED");
      }
    });
  });

  describe("throttling of failed sign-ins", () => {
    it("after 5 failures for an email, the 6th attempt is 429 with Retry-After even with the right password", async () => {
      pastThrottleWindow();
      await signedInPerson(api, merchant.merchantId, "target@example.com");
      const attacker = consolePerson(api);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const failed = await attacker.call("POST", "/console/api/session", {
          email: "target@example.com",
          password: `guess number ${attempt}`,
        });
        expect(failed.status).toBe(401);
      }
      clock.advance(60);
      const throttled = await consolePerson(api).call("POST", "/console/api/session", {
        email: "target@example.com",
        password: STRONG_PASSWORD,
      });
      expect(throttled.status).toBe(429);
      expect(throttled.body.error.code).toBe("CONSOLE_SIGN_IN_THROTTLED");
      const retryAfter = Number(throttled.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(THROTTLE_WINDOW_SECONDS - 70);
      expect(retryAfter).toBeLessThanOrEqual(THROTTLE_WINDOW_SECONDS - 60);
      expect(throttled.body.error.details.retryAfterSeconds).toBe(retryAfter);
      clock.advance(retryAfter);
      const after = await consolePerson(api).call("POST", "/console/api/session", {
        email: "target@example.com",
        password: STRONG_PASSWORD,
      });
      expect(after.status).toBe(200);
    });

    it("after 20 failures from one address, any email from it is 429", async () => {
      pastThrottleWindow();
      await signedInPerson(api, merchant.merchantId, "bystander@example.com");
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const failed = await consolePerson(api).call("POST", "/console/api/session", {
          email: `spray-${attempt % 4}@example.com`,
          password: "a guessed password",
        });
        expect(failed.status).toBe(401);
      }
      const throttled = await consolePerson(api).call("POST", "/console/api/session", {
        email: "bystander@example.com",
        password: STRONG_PASSWORD,
      });
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
      pastThrottleWindow();
    });
  });

  describe("Origin of unsafe requests", () => {
    it.each([
      ["no Origin", null],
      ["another site's Origin", "https://evil.example"],
      ["the same host on another port", "http://127.0.0.1:1"],
    ])("%s: 403 ORIGIN_FORBIDDEN before anything else, for every unsafe operation", async (_name, origin) => {
      const person = await signedInPerson(api, merchant.merchantId, `origin-${String(origin).length}@example.com`);
      for (const operationId of Object.keys(consoleOperations) as (keyof typeof consoleOperations)[]) {
        const { method, path, body } = sampleCall(operationId, merchant.ticketCode, merchant.apiKey);
        if (method === "GET") continue;
        const answer = await person.call(method, path, body, { origin });
        expect(answer.status, operationId).toBe(403);
        expect(answer.body.error.code, operationId).toBe("ORIGIN_FORBIDDEN");
      }
      expect((await person.call("GET", "/console/api/me", undefined, { origin: null })).status).toBe(200);
    });
  });

  describe("roles", () => {
    it("an ANALYST reads every list and gets 403 CONSOLE_FORBIDDEN on every change, and nothing changes", async () => {
      const analyst = await signedInPerson(api, merchant.merchantId, "analyst@example.com", "ANALYST");
      expect((await analyst.call("GET", "/console/api/me")).body.role).toBe("ANALYST");
      const keysBefore = (await analyst.call("GET", "/console/api/api-keys")).body.items;
      for (const operationId of Object.keys(consoleOperations) as (keyof typeof consoleOperations)[]) {
        const { access } = consoleTable[operationId];
        if (access === "public" || access === "self") continue;
        const { method, path, body } = sampleCall(operationId, merchant.ticketCode, merchant.apiKey);
        const answer = await analyst.call(method, path, body);
        if (access === "change") {
          expect(answer.status, operationId).toBe(403);
          expect(answer.body.error.code, operationId).toBe("CONSOLE_FORBIDDEN");
        } else expect(answer.status, operationId).toBe(200);
      }
      expect((await analyst.call("GET", "/console/api/api-keys")).body.items).toEqual(keysBefore);
      const webinar = await analyst.call("GET", `/console/api/webinars/${merchant.ticketCode}`);
      expect(webinar.body.webinar).toMatchObject({ status: "PUBLISHED", liveStatus: "NOT_STARTED" });
    });

    it("an ANALYST may set their own language", async () => {
      const analyst = await signedInPerson(api, merchant.merchantId, "analyst-zh@example.com", "ANALYST");
      const set = await analyst.call("POST", "/console/api/me/language", { language: "zh-CN" });
      expect(set).toMatchObject({ status: 200, body: { language: "zh-CN" } });
    });
  });
});
