/**
 * The sign-in throttle over HTTP, on PGlite and on PostgreSQL (console-openapi.yaml, "Sign-in throttling"), with
 * the server trusting 127.0.0.1 as its proxy so each client's address rides in `X-Forwarded-For`: a burst of 40
 * wrong passwords for one email gets 5 checked (counted by the server's password-hash metric, not by timing) and 35
 * answered 429 with Retry-After; failures from one address never lock the person out from another; the limit per
 * address; past the per-email ceiling, sign-in slows down and the right password still gets in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitAttempt, throttleSubjects } from "../src/people/sign-in-throttle";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type Merchant, type TestServer } from "./support/harness";
import { consolePerson, signedInPerson, STRONG_PASSWORD } from "./support/console-client";
import { testClock } from "./support/test-clock";

const THROTTLE_WINDOW_SECONDS = 15 * 60;

describe.each(DATABASE_KINDS)("the sign-in throttle on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;
  const clock = testClock();

  beforeAll(async () => {
    database = await openTestDatabase(kind, "console-throttle");
    api = await startTestServer(
      database,
      { WEBINAR_TRUSTED_PROXIES: "127.0.0.1", WEBINAR_METRICS_PORT: "0" },
      { runtime: clock },
    );
    merchant = await api.newMerchant();
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  /** Password hashes the server has computed so far (scrypt runs: every checked password). */
  async function hashesComputed(): Promise<number> {
    const metric = await api.server.services
      .metrics!.registry.getSingleMetric("webinar_console_password_hashes_total")!
      .get();
    return metric.values[0]?.value ?? 0;
  }

  const signIn = (email: string, password: string, address: string) =>
    consolePerson(api, undefined, address).call("POST", "/console/api/session", { email, password });

  it("of 40 wrong sign-ins for one email sent at once, 5 are checked; the other 35 answer 429 with Retry-After", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    await signedInPerson(api, merchant.merchantId, "burst@example.com");
    const before = await hashesComputed();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => signIn("burst@example.com", `wrong guess ${index}`, "203.0.113.40")),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    for (const answer of answers.filter((refused) => refused.status === 429)) {
      expect(answer.body.error.code).toBe("CONSOLE_SIGN_IN_THROTTLED");
      const retryAfter = Number(answer.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(THROTTLE_WINDOW_SECONDS - 60);
      expect(retryAfter).toBeLessThanOrEqual(THROTTLE_WINDOW_SECONDS);
    }
    expect((await hashesComputed()) - before).toBe(5);
    // The right password from that address is refused too, until the window passes; from another it gets in.
    expect((await signIn("burst@example.com", STRONG_PASSWORD, "203.0.113.40")).status).toBe(429);
    expect((await signIn("burst@example.com", STRONG_PASSWORD, "203.0.113.41")).status).toBe(200);
  });

  it("after 5 wrong passwords from address A, the right password from address B signs in; A stays throttled", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    await signedInPerson(api, merchant.merchantId, "lockout@example.com");
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect((await signIn("lockout@example.com", `guess ${attempt}`, "198.51.100.1")).status).toBe(401);
    const fromB = await signIn("lockout@example.com", STRONG_PASSWORD, "198.51.100.2");
    expect(fromB).toMatchObject({ status: 200, body: { email: "lockout@example.com" } });
    const fromA = await signIn("lockout@example.com", STRONG_PASSWORD, "198.51.100.1");
    expect(fromA).toMatchObject({ status: 429, body: { error: { code: "CONSOLE_SIGN_IN_THROTTLED" } } });
    // A sign-in from B cleared B's count only: B signs in again, A waits for its window.
    expect((await signIn("lockout@example.com", STRONG_PASSWORD, "198.51.100.2")).status).toBe(200);
    clock.advance(THROTTLE_WINDOW_SECONDS);
    expect((await signIn("lockout@example.com", STRONG_PASSWORD, "198.51.100.1")).status).toBe(200);
  });

  it("an address that made 50 attempts within 15 minutes, whatever the emails, is refused for any email", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    await signedInPerson(api, merchant.merchantId, "sprayed@example.com");
    // 50 attempts counted as each signIn counts its own (the throttle module itself, without the scrypt work).
    for (let attempt = 0; attempt < 50; attempt += 1)
      await admitAttempt(
        database.handle.db,
        throttleSubjects(`spray-${attempt}@example.com`, "192.0.2.50"),
        clock.now(),
      );
    const refused = await signIn("sprayed@example.com", STRONG_PASSWORD, "192.0.2.50");
    expect(refused).toMatchObject({ status: 429, body: { error: { code: "CONSOLE_SIGN_IN_THROTTLED" } } });
    expect((await signIn("sprayed@example.com", STRONG_PASSWORD, "192.0.2.51")).status).toBe(200);
  });

  it("past 10 attempts for one email from many addresses, sign-in slows down: one check per interval, and the right password gets in", async () => {
    clock.advance(THROTTLE_WINDOW_SECONDS + 1);
    await signedInPerson(api, merchant.merchantId, "slowed@example.com");
    const wrong = await Promise.all(
      Array.from({ length: 11 }, (_, index) =>
        signIn("slowed@example.com", `botnet guess ${index}`, `192.0.2.${100 + index}`),
      ),
    );
    expect(wrong.map((answer) => answer.status)).toEqual(Array(11).fill(401));
    const slowed = await signIn("slowed@example.com", STRONG_PASSWORD, "192.0.2.200");
    expect(slowed).toMatchObject({ status: 429, body: { error: { code: "CONSOLE_SIGN_IN_THROTTLED" } } });
    const wait = Number(slowed.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    clock.advance(wait);
    expect((await signIn("slowed@example.com", STRONG_PASSWORD, "192.0.2.200")).status).toBe(200);
  });
});
