/**
 * People and sessions of the console API (console-openapi.yaml) over HTTP, on PGlite and on PostgreSQL: invites
 * (one use, expiry, a short or common password keeps the invite usable, a new invite resets the password),
 * passwords (hashed at the server's scrypt cost, a hash of another cost upgraded at sign-in), sign-in (one answer for a
 * wrong password and an unknown email), the 6th attempt from one address throttled (429 with Retry-After; the rest
 * of the throttle is console-sign-in-throttle.test.ts), sessions (cookie attributes, sign out, sign out everywhere,
 * sliding idle expiry, the absolute limit, listing and ending one), the order of checks (401 before the body), the
 * Origin check of unsafe requests, and roles (an ANALYST reads and changes nothing).
 */
import { scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleOperations } from "@org/webinar-console-contract/validators";
import { consoleTable } from "../src/console/operations";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, TEST_PASSWORD_COST, type Merchant, type TestServer } from "./support/harness";
import { consolePerson, inviteToken, sampleCall, signedInPerson, STRONG_PASSWORD } from "./support/console-client";
import { testClock } from "./support/test-clock";

const IDLE_SECONDS = 3600;
const MAX_SECONDS = 3 * IDLE_SECONDS;
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
      {
        WEBINAR_CONSOLE_SESSION_IDLE_SECONDS: String(IDLE_SECONDS),
        WEBINAR_CONSOLE_SESSION_MAX_SECONDS: String(MAX_SECONDS),
        WEBINAR_CONSOLE_INVITE_TTL_SECONDS: "86400",
        WEBINAR_TRUSTED_PROXIES: "127.0.0.1",
      },
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
      const weak = await person.call("POST", "/console/api/session/invite", { token, password: "eleven-char" });
      expect(weak.status).toBe(400);
      expect(weak.body.error.code).toBe("REQUEST_INVALID");
      expect(weak.body.error.details.errors[0]).toMatchObject({
        pointer: "/password",
        rule: "minLength",
        message: "must NOT have fewer than 12 characters",
      });
      for (const common of ["password1234", "qwertyuiop12", "weak@example.com2026", "Password12345"]) {
        const refused = await person.call("POST", "/console/api/session/invite", { token, password: common });
        expect(refused.status, common).toBe(400);
        expect(refused.body.error.code, common).toBe("CONSOLE_PASSWORD_TOO_COMMON");
      }
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
        /^webinar_console=cs_[A-Za-z0-9_-]+; Max-Age=\d+; Path=\/console; HttpOnly; SameSite=Strict$/,
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
      expect(out.headers.getSetCookie()[0]).toMatch(/^webinar_console=; Max-Age=0; Path=\/console;/);
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

    it.each([
      ["a body its schema accepts", (body: unknown) => body, ""],
      ["a body with an unknown field", () => ({ notAField: true }), ""],
      ["a body that is no JSON", () => "{not json", ""],
      ["an unknown query parameter", (body: unknown) => body, "?notAParameter=1"],
    ])(
      "order of checks: without a session every operation but acceptInvite and signIn is 401 CONSOLE_UNAUTHORIZED, with %s",
      async (_case, bodyOf, query) => {
        const anonymous = consolePerson(api);
        const expired = consolePerson(api, "cs_no-such-session");
        for (const operationId of Object.keys(consoleOperations) as (keyof typeof consoleOperations)[]) {
          if (operationId === "acceptInvite" || operationId === "signIn") continue;
          const { method, path, body } = sampleCall(operationId, merchant.ticketCode, merchant.apiKey);
          const sent = method === "GET" ? undefined : bodyOf(body);
          const url = query === "" ? path : `${path}${path.includes("?") ? "&" : "?"}${query.slice(1)}`;
          for (const person of [anonymous, expired]) {
            const answer = await person.call(method, url, sent);
            expect(answer.status, operationId).toBe(401);
            expect(answer.body.error.code, operationId).toBe("CONSOLE_UNAUTHORIZED");
          }
        }
      },
    );

    it("signOut without a valid session is 401 and clears the cookie", async () => {
      const answer = await consolePerson(api, "cs_no-such-session").call("POST", "/console/api/session/sign-out", {});
      expect(answer).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_UNAUTHORIZED" } } });
      expect(answer.headers.getSetCookie()).toEqual([
        "webinar_console=; Max-Age=0; Path=/console; HttpOnly; SameSite=Strict",
      ]);
    });

    it("a session ends at its absolute limit however busy it is; the cookie never outlives it", async () => {
      const person = await signedInPerson(api, merchant.merchantId, "busy@example.com");
      for (let elapsed = 0; elapsed + IDLE_SECONDS / 2 < MAX_SECONDS; elapsed += IDLE_SECONDS / 2) {
        clock.advance(IDLE_SECONDS / 2);
        const me = await person.call("GET", "/console/api/me");
        expect(me.status).toBe(200);
        const maxAge = /Max-Age=(\d+)/.exec(me.headers.getSetCookie()[0] ?? "")?.[1];
        if (maxAge !== undefined) expect(elapsed + IDLE_SECONDS / 2 + Number(maxAge)).toBeLessThanOrEqual(MAX_SECONDS);
      }
      clock.advance(IDLE_SECONDS / 2);
      expect((await person.call("GET", "/console/api/me")).status).toBe(401);
    });
  });

  describe("the person's sessions (listSessions, endSession)", () => {
    const chrome =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

    it("lists each session with its device, address and times, the current one marked; another person's are not listed", async () => {
      pastThrottleWindow();
      await signedInPerson(api, merchant.merchantId, "devices@example.com");
      const laptop = consolePerson(api, undefined, "203.0.113.9");
      const phone = consolePerson(api, undefined, "198.51.100.23");
      const signIn = (person: typeof laptop, userAgent: string) =>
        person.call(
          "POST",
          "/console/api/session",
          { email: "devices@example.com", password: STRONG_PASSWORD },
          { headers: { "user-agent": userAgent } },
        );
      expect((await signIn(laptop, chrome)).status).toBe(200);
      clock.advance(120);
      expect((await signIn(phone, iphone)).status).toBe(200);
      const listed = await laptop.call("GET", "/console/api/me/sessions");
      expect(listed.status).toBe(200);
      const items = listed.body.items as Array<Record<string, unknown>>;
      expect(items).toHaveLength(3);
      expect(items.find((item) => item.device === "Safari on iPhone")).toMatchObject({
        current: false,
        address: "198.51.100.23",
      });
      expect(items.find((item) => item.current)).toMatchObject({ device: "Chrome on macOS", address: "203.0.113.9" });
      for (const item of items) {
        expect(item.sessionId).toMatch(/^ses_[A-Za-z0-9]{20}$/);
        expect(String(item.lastSeenAt)).toMatch(/:00Z$/);
        expect(Date.parse(String(item.expiresAt))).toBeGreaterThan(clock.now());
      }
      expect(JSON.stringify(listed.body)).not.toContain(laptop.cookie!);
      const other = await signedInPerson(api, merchant.merchantId, "someone-else@example.com");
      expect((await other.call("GET", "/console/api/me/sessions")).body.items).toHaveLength(1);
    });

    it("endSession ends that session at once; ending another person's is 404; ending the current one signs out", async () => {
      pastThrottleWindow();
      const laptop = await signedInPerson(api, merchant.merchantId, "ender@example.com");
      const phone = consolePerson(api, undefined, "198.51.100.40");
      await phone.call("POST", "/console/api/session", { email: "ender@example.com", password: STRONG_PASSWORD });
      const items = (await laptop.call("GET", "/console/api/me/sessions")).body.items as Array<{
        sessionId: string;
        current: boolean;
      }>;
      const phoneSession = items.find((item) => !item.current)!.sessionId;
      const ownSession = items.find((item) => item.current)!.sessionId;
      const stranger = await signedInPerson(api, merchant.merchantId, "stranger@example.com");
      const foreign = await stranger.call("POST", `/console/api/me/sessions/${phoneSession}/end`, {});
      expect(foreign).toMatchObject({ status: 404, body: { error: { code: "CONSOLE_SESSION_NOT_FOUND" } } });
      expect((await phone.call("GET", "/console/api/me")).status).toBe(200);
      const ended = await laptop.call("POST", `/console/api/me/sessions/${phoneSession}/end`, {});
      expect(ended).toMatchObject({ status: 200, body: { sessionId: phoneSession, signedOut: false } });
      expect((await phone.call("GET", "/console/api/me")).status).toBe(401);
      const again = await laptop.call("POST", `/console/api/me/sessions/${phoneSession}/end`, {});
      expect(again.status).toBe(404);
      const own = await laptop.call("POST", `/console/api/me/sessions/${ownSession}/end`, {});
      expect(own).toMatchObject({ status: 200, body: { signedOut: true } });
      expect(own.headers.getSetCookie()[0]).toMatch(/^webinar_console=; Max-Age=0; Path=\/console;/);
      expect((await consolePerson(api, laptop.cookie).call("GET", "/console/api/me")).status).toBe(401);
    });
  });

  describe("password hashes", () => {
    it("a new password is hashed at the server's scrypt cost; a hash of another cost is replaced at the next sign-in", async () => {
      const today = [
        "scrypt",
        String(TEST_PASSWORD_COST.N),
        String(TEST_PASSWORD_COST.r),
        String(TEST_PASSWORD_COST.p),
      ];
      pastThrottleWindow();
      const person = await signedInPerson(api, merchant.merchantId, "old-hash@example.com");
      const stored = async () =>
        (
          await database.handle.db
            .selectFrom("console_users")
            .select("password_hash")
            .where("email", "=", "old-hash@example.com")
            .executeTakeFirstOrThrow()
        ).password_hash!;
      expect((await stored()).split("$").slice(0, 4)).toEqual(today);
      // A hash of an earlier cost (half today's N), written as the server writes them.
      const salt = Buffer.from("0123456789abcdef");
      const earlierN = TEST_PASSWORD_COST.N / 2;
      const key = scryptSync(STRONG_PASSWORD, salt, 32, { N: earlierN, r: 8, p: 1 });
      const old = ["scrypt", earlierN, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
      await database.handle.db
        .updateTable("console_users")
        .set({ password_hash: old })
        .where("email", "=", "old-hash@example.com")
        .execute();
      expect((await person.call("POST", "/console/api/session/sign-out", {})).status).toBe(200);
      const again = await consolePerson(api).call("POST", "/console/api/session", {
        email: "old-hash@example.com",
        password: STRONG_PASSWORD,
      });
      expect(again.status).toBe(200);
      const upgraded = await stored();
      expect(upgraded.split("$").slice(0, 4)).toEqual(today);
      expect(upgraded).not.toBe(old);
      const later = await consolePerson(api).call("POST", "/console/api/session", {
        email: "old-hash@example.com",
        password: STRONG_PASSWORD,
      });
      expect(later.status).toBe(200);
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
