/**
 * Authentication (Signing requests) and the common errors (Errors and retries) through the validator pipeline the
 * server mounts, on PGlite and on PostgreSQL: headers, signature, clock skew, keys and their revocation, merchant
 * suspension, replay (with the nonce store shared by two server instances), paths, methods, body limits and origins.
 * Plus the Redis nonce store against 127.0.0.1:6379.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limits, operations } from "@org/webinar-types";
import { signRequest } from "@org/webinar-signing";
import { openNonceStore } from "../src/keys/nonce-stores";
import { createSecretBox } from "../src/keys/secret-box";
import { parseSecretKey } from "../src/config";
import { systemRuntime } from "../src/runtime";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { useServerPerFile } from "./support/server-per-file";
import { apiError, SECRET_KEY, startTestServer } from "./support/harness";
import { rawRequest } from "./support/raw-http";

const UPSERT = operations.upsertViewer.path;
const TICKET = operations.issueLoginTicket.path;
const nonce = () => randomBytes(16).toString("hex");

describe.each(DATABASE_KINDS)("authentication with keys and nonces stored on %s", (kind) => {
  const fixture = useServerPerFile(kind, "auth");
  let counter = 0;
  const body = () => ({ externalUserId: `auth-${++counter}` });

  it("a correctly signed request succeeds and carries X-Request-Id = body.requestId", async () => {
    const answer = await fixture.api.signed(fixture.merchant, UPSERT, body());
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-request-id")).toBe(answer.body.requestId);
  });

  describe("keys and merchants (Signing requests)", () => {
    it("Errors and retries: an unknown API key or a wrong secret: 401", async () => {
      expect(
        (await fixture.api.signed({ apiKey: "wk_live_unknown", secret: fixture.merchant.secret }, UPSERT, body())).body
          .error.code,
      ).toBe("OPEN_API_UNAUTHORIZED");
      expect(
        (await fixture.api.signed({ apiKey: fixture.merchant.apiKey, secret: "not-the-secret" }, UPSERT, body())).body
          .error.code,
      ).toBe("OPEN_API_UNAUTHORIZED");
    });

    it("Signing requests: a revoked key is refused from the next request on (401); the merchant's other key still works", async () => {
      const other = await fixture.api.newMerchant();
      const spare = (await fixture.api.admin("POST", `/admin/v1/merchants/${other.merchantId}/api-keys`, {})).body as {
        apiKey: string;
        secret: string;
      };
      expect((await other.client.upsertViewer(body())).created).toBe(true);
      expect((await fixture.api.admin("POST", `/admin/v1/api-keys/${other.apiKey}/revoke`, {})).status).toBe(200);
      expect(await apiError(other.client.upsertViewer(body()))).toMatchObject({
        status: 401,
        code: "OPEN_API_UNAUTHORIZED",
      });
      expect((await fixture.api.client(spare).upsertViewer(body())).created).toBe(true);
    });

    it("Signing requests: a suspended merchant: 403 TENANT_SUSPENDED from the next request on; reactivated, it works again", async () => {
      const other = await fixture.api.newMerchant();
      await fixture.api.admin("POST", `/admin/v1/merchants/${other.merchantId}/status`, { status: "SUSPENDED" });
      expect(await apiError(other.client.upsertViewer(body()))).toMatchObject({
        status: 403,
        code: "TENANT_SUSPENDED",
      });
      expect(
        await apiError(other.client.issueLoginTicket({ uid: 10_000, ticketCode: other.ticketCode })),
      ).toMatchObject({ code: "TENANT_SUSPENDED" });
      await fixture.api.admin("POST", `/admin/v1/merchants/${other.merchantId}/status`, { status: "ACTIVE" });
      expect((await other.client.upsertViewer(body())).created).toBe(true);
    });

    it.each([
      ["a secret as issued now: wsk_live_ and 43 base64url characters", "wsk_live_"],
      ["a secret issued before the prefix: bare base64url", ""],
      ["a secret issued before the prefix that starts with a dash", "-"],
    ])("Signing requests: %s signs requests", async (_name, start) => {
      const other = await fixture.api.newMerchant();
      const issued = (await fixture.api.admin("POST", `/admin/v1/merchants/${other.merchantId}/api-keys`, {})).body as {
        apiKey: string;
        secret: string;
      };
      expect(issued.secret).toMatch(/^wsk_live_[A-Za-z0-9_-]{43}$/);
      // An older secret is put in place as it was stored then: sealed with the server's secret key.
      const secret = start === "wsk_live_" ? issued.secret : `${start}${randomBytes(32).toString("base64url")}`;
      const box = createSecretBox(parseSecretKey(SECRET_KEY), systemRuntime);
      await fixture.database.handle.db
        .updateTable("api_keys")
        .set({ secret_sealed: box.seal(secret, issued.apiKey) })
        .where("api_key", "=", issued.apiKey)
        .execute();
      expect((await fixture.api.client({ apiKey: issued.apiKey, secret }).upsertViewer(body())).created).toBe(true);
      expect(
        (await fixture.api.signed({ apiKey: issued.apiKey, secret: `${secret}x` }, UPSERT, body())).body.error.code,
      ).toBe("OPEN_API_UNAUTHORIZED");
    });

    it("API-key secrets are stored encrypted, not in plaintext", async () => {
      const rows = await fixture.database.handle.db
        .selectFrom("api_keys")
        .select(["api_key", "secret_sealed"])
        .where("api_key", "=", fixture.merchant.apiKey)
        .execute();
      expect(rows[0]!.secret_sealed).toMatch(/^v1\./);
      expect(rows[0]!.secret_sealed).not.toContain(fixture.merchant.secret);
    });
  });

  describe("replay (Signing requests)", () => {
    it("Errors and retries: the same nonce twice: 409 OPEN_API_REPLAYED", async () => {
      const reused = nonce();
      expect((await fixture.api.signed(fixture.merchant, UPSERT, body(), { nonce: reused })).status).toBe(200);
      expect((await fixture.api.signed(fixture.merchant, UPSERT, body(), { nonce: reused })).body.error.code).toBe(
        "OPEN_API_REPLAYED",
      );
    });

    it("Signing requests: a nonce is used up even when the business validation failed", async () => {
      const reused = nonce();
      expect(
        (await fixture.api.signed(fixture.merchant, UPSERT, { externalUserId: "x", phone: null }, { nonce: reused }))
          .body.error.code,
      ).toBe("REQUEST_INVALID");
      expect((await fixture.api.signed(fixture.merchant, UPSERT, body(), { nonce: reused })).body.error.code).toBe(
        "OPEN_API_REPLAYED",
      );
    });

    it("replays of upsert and ticket requests: 409 OPEN_API_REPLAYED before any business answer", async () => {
      const uid = (
        (await fixture.api.signed(fixture.merchant, UPSERT, body())).body as { data: { viewer: { uid: number } } }
      ).data.viewer.uid;
      const reused = nonce();
      expect(
        (
          await fixture.api.signed(
            fixture.merchant,
            TICKET,
            { uid, ticketCode: fixture.merchant.ticketCode },
            { nonce: reused },
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await fixture.api.signed(
            fixture.merchant,
            TICKET,
            { uid, ticketCode: fixture.merchant.ticketCode },
            { nonce: reused },
          )
        ).body.error.code,
      ).toBe("OPEN_API_REPLAYED");
      expect(
        (await fixture.api.signed(fixture.merchant, TICKET, { uid, ticketCode: "wbn-nothing-here" }, { nonce: reused }))
          .body.error.code,
      ).toBe("OPEN_API_REPLAYED");
      expect(
        (
          await fixture.api.signed(
            fixture.merchant,
            UPSERT,
            { externalUserId: "dn", displayName: "Ann" },
            { nonce: reused },
          )
        ).body.error.code,
      ).toBe("OPEN_API_REPLAYED");
      // Business errors use the nonce up too.
      const failed = nonce();
      expect(
        (await fixture.api.signed(fixture.merchant, TICKET, { uid, ticketCode: "wbn-nothing-here" }, { nonce: failed }))
          .body.error.code,
      ).toBe("WEBINAR_NOT_FOUND");
      expect(
        (
          await fixture.api.signed(
            fixture.merchant,
            TICKET,
            { uid, ticketCode: fixture.merchant.ticketCode },
            { nonce: failed },
          )
        ).body.error.code,
      ).toBe("OPEN_API_REPLAYED");
      const missing = nonce();
      expect(
        (
          await fixture.api.signed(
            fixture.merchant,
            TICKET,
            { uid: uid === limits.uidMax ? limits.uidMin : limits.uidMax, ticketCode: fixture.merchant.ticketCode },
            { nonce: missing },
          )
        ).body.error.code,
      ).toBe("VIEWER_NOT_FOUND");
      expect((await fixture.api.signed(fixture.merchant, UPSERT, body(), { nonce: missing })).body.error.code).toBe(
        "OPEN_API_REPLAYED",
      );
    });

    it("a revoked key or a suspended merchant is refused on the ticket path too, right after a successful request", async () => {
      const other = await fixture.api.newMerchant();
      const uid = (await other.client.upsertViewer(body())).viewer.uid;
      expect((await other.client.issueLoginTicket({ uid, ticketCode: other.ticketCode })).loginTicket).toMatch(/^lt_/);
      await fixture.api.admin("POST", `/admin/v1/merchants/${other.merchantId}/status`, { status: "SUSPENDED" });
      expect(await apiError(other.client.issueLoginTicket({ uid, ticketCode: other.ticketCode }))).toMatchObject({
        status: 403,
        code: "TENANT_SUSPENDED",
      });
      await fixture.api.admin("POST", `/admin/v1/merchants/${other.merchantId}/status`, { status: "ACTIVE" });
      expect((await other.client.issueLoginTicket({ uid, ticketCode: other.ticketCode })).loginTicket).toMatch(/^lt_/);
      expect((await fixture.api.admin("POST", `/admin/v1/api-keys/${other.apiKey}/revoke`, {})).status).toBe(200);
      expect(await apiError(other.client.issueLoginTicket({ uid, ticketCode: other.ticketCode }))).toMatchObject({
        status: 401,
        code: "OPEN_API_UNAUTHORIZED",
      });
    });

    it("a forged request does not burn the nonce (consumed only after the signature verifies)", async () => {
      const reused = nonce();
      expect(
        (
          await fixture.api.signed({ apiKey: fixture.merchant.apiKey, secret: "wrong" }, UPSERT, body(), {
            nonce: reused,
          })
        ).status,
      ).toBe(401);
      expect((await fixture.api.signed(fixture.merchant, UPSERT, body(), { nonce: reused })).status).toBe(200);
    });

    it("one nonce sent to two server instances sharing the database at once: exactly one accepted", async () => {
      // The second instance opens its own connection (pool) when the database is PostgreSQL, like a second process.
      const second =
        kind === "postgres"
          ? await startTestServer(fixture.database, {}, { database: "own" })
          : await startTestServer(fixture.database);
      try {
        for (let round = 0; round < 5; round += 1) {
          const raw = JSON.stringify(body());
          const { headers } = await signRequest({
            apiKey: fixture.merchant.apiKey,
            secret: fixture.merchant.secret,
            path: UPSERT,
            body: raw,
          });
          const answers = await Promise.all(
            [fixture.api.url, second.url].map((url) =>
              fetch(`${url}${UPSERT}`, { method: "POST", headers: { ...headers }, body: raw }),
            ),
          );
          expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
        }
      } finally {
        await second.close();
      }
    });

    it("nonce rows are kept until the expiry the verifier gives (twice the skew window), then pruned", async () => {
      let at = Date.now();
      const { store, prune } = openNonceStore({ db: fixture.database.handle.db, runtime: { now: () => at } });
      const key = `wk_prune_${counter++}`;
      const expiry = at + 600_000;
      expect(await store.consume(key, "n".repeat(32), expiry)).toBe(true);
      expect(await store.consume(key, "n".repeat(32), expiry)).toBe(false);
      at += 599_000;
      await prune();
      expect(await store.consume(key, "n".repeat(32), at + 600_000)).toBe(false);
      at += 2000;
      await prune();
      expect(
        await fixture.database.handle.db
          .selectFrom("open_api_nonces")
          .select("nonce")
          .where("api_key", "=", key)
          .execute(),
      ).toEqual([]);
      expect(await store.consume(key, "n".repeat(32), at + 600_000)).toBe(true);
    });
  });
});

/**
 * What the validator checks before any key or nonce is looked up never reaches a database, and the validator's
 * own tests run each check's every variant. Here one case of each kind proves it is mounted, configured from the
 * server's environment, and that its answers reach the client as written.
 */
describe(`the validator as the server mounts it: checks that need no database (on ${DATABASE_KINDS[0]})`, () => {
  const fixture = useServerPerFile(DATABASE_KINDS[0]!, "auth_wiring");
  let counter = 0;
  const body = () => ({ externalUserId: `wiring-${++counter}` });

  describe("headers (Signing requests)", () => {
    it.each(["X-Signature"])("Errors and retries: missing %s: 400 REQUEST_INVALID", async (header) => {
      const answer = await fixture.api.signed(fixture.merchant, UPSERT, body(), { omit: [header] });
      expect(answer).toMatchObject({ status: 400, body: { error: { code: "REQUEST_INVALID" } } });
    });

    it.each(["X-Nonce"])(
      "Errors and retries: duplicated %s (two header lines on the wire): 400 REQUEST_INVALID",
      async (header) => {
        const raw = JSON.stringify(body());
        const { headers } = await signRequest({
          apiKey: fixture.merchant.apiKey,
          secret: fixture.merchant.secret,
          path: UPSERT,
          body: raw,
        });
        const value = headers[header as keyof typeof headers];
        const answer = await rawRequest(fixture.api.url, {
          path: UPSERT,
          headers: { ...headers, [header]: [value, value] },
          body: raw,
        });
        expect(answer.status).toBe(400);
        expect(answer.body.error.code).toBe("REQUEST_INVALID");
      },
    );

    it.each([["Content-Type text/plain", { "Content-Type": "text/plain" }]])(
      "Signing requests: %s: 400 REQUEST_INVALID",
      async (_label, headers) => {
        expect((await fixture.api.signed(fixture.merchant, UPSERT, body(), { headers })).body.error.code).toBe(
          "REQUEST_INVALID",
        );
      },
    );
  });

  describe("signature and clock (Signing requests)", () => {
    it.each([
      ["a body changed after signing", { sendBody: JSON.stringify({ externalUserId: "tampered" }) }],
      ["a timestamp 301 s in the past", { offset: -301 }],
    ])(
      "Errors and retries: %s: 401 OPEN_API_UNAUTHORIZED",
      async (_label, variant: { sendBody?: string; offset?: number }) => {
        const raw = JSON.stringify(body());
        const timestamp = String(Math.floor(Date.now() / 1000) + (variant.offset ?? 0));
        const { headers } = await signRequest({
          apiKey: fixture.merchant.apiKey,
          secret: fixture.merchant.secret,
          path: UPSERT,
          body: raw,
          timestamp,
        });
        const sent = { ...headers };
        const answer = await rawRequest(fixture.api.url, {
          path: UPSERT,
          headers: sent,
          body: variant.sendBody ?? raw,
        });
        expect(answer.status).toBe(401);
        expect(answer.body.error.code).toBe("OPEN_API_UNAUTHORIZED");
      },
    );

    it("Limits: a timestamp 290 s off is within the skew window", async () => {
      expect(
        (
          await fixture.api.signed(fixture.merchant, UPSERT, body(), {
            timestamp: String(Math.floor(Date.now() / 1000) - 290),
          })
        ).status,
      ).toBe(200);
    });

    it("WEBINAR_CLOCK_SKEW_SECONDS narrows the window", async () => {
      const strict = await startTestServer(fixture.database, { WEBINAR_CLOCK_SKEW_SECONDS: "30" });
      try {
        const answer = await strict.signed(fixture.merchant, UPSERT, body(), {
          timestamp: String(Math.floor(Date.now() / 1000) - 60),
        });
        expect(answer.body.error.code).toBe("OPEN_API_UNAUTHORIZED");
      } finally {
        await strict.close();
      }
    });
  });

  describe("paths and methods (the operations, Signing requests)", () => {
    it.each([
      ["a trailing slash", `${UPSERT}/`],
      ["a dot segment", "/api/v1/open/viewers/../viewers/upsert"],
      ["a double slash", UPSERT.replace("/viewers", "//viewers")],
    ])("Signing requests: %s: 401 OPEN_API_UNAUTHORIZED", async (_label, sendPath) => {
      const raw = JSON.stringify(body());
      const { headers } = await signRequest({
        apiKey: fixture.merchant.apiKey,
        secret: fixture.merchant.secret,
        path: UPSERT,
        body: raw,
      });
      const answer = await rawRequest(fixture.api.url, { path: sendPath, headers: { ...headers }, body: raw });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("OPEN_API_UNAUTHORIZED");
    });

    it("a path that is no operation: 404 REQUEST_INVALID in the envelope", async () => {
      const answer = await rawRequest(fixture.api.url, {
        path: "/api/v1/open/nothing",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(answer).toMatchObject({ status: 404, body: { error: { code: "REQUEST_INVALID" } } });
      expect(answer.headers["x-request-id"]).toBe(answer.body.requestId);
    });

    it("another method than POST: 405 REQUEST_INVALID", async () => {
      const answer = await rawRequest(fixture.api.url, { method: "GET", path: UPSERT });
      expect(answer).toMatchObject({ status: 405, body: { error: { code: "REQUEST_INVALID" } } });
    });
  });

  describe("request bodies (the operations' request schemas)", () => {
    it("a body breaking its schema: 400 REQUEST_INVALID naming the field; a rule beyond JSON Schema: its own code", async () => {
      const invalid = await fixture.api.signed(fixture.merchant, UPSERT, { externalUserId: "x", phone: null });
      expect(invalid).toMatchObject({ status: 400, body: { error: { code: "REQUEST_INVALID" } } });
      expect(JSON.stringify(invalid.body.error.details)).toContain("/phone");
      const detail = { ticketCode: fixture.merchant.ticketCode, playbackMode: "ALL", sort: "WATCH_SECONDS_DESC" };
      const tooMany = await fixture.api.signed(fixture.merchant, operations.queryViewerWatch.path, {
        ...detail,
        pageSize: 10,
        uids: Array(150).fill(10_001),
        externalUserIds: Array(151).fill("a"),
      });
      expect(tooMany).toMatchObject({ status: 400, body: { error: { code: "WATCH_REQUEST_INVALID" } } });
    });
  });

  describe("body limit (Limits)", () => {
    it("Errors and retries: a body over WEBINAR_MAX_BODY_BYTES: 400 REQUEST_INVALID", async () => {
      const small = await startTestServer(fixture.database, { WEBINAR_MAX_BODY_BYTES: "2048" });
      try {
        const answer = await small.signed(fixture.merchant, UPSERT, {
          externalUserId: "big",
          displayName: "x".repeat(3000),
        });
        expect(answer).toMatchObject({ status: 400, body: { error: { code: "REQUEST_INVALID" } } });
        expect((await small.signed(fixture.merchant, UPSERT, body())).status).toBe(200);
      } finally {
        await small.close();
      }
    });
  });

  describe("origins (Signing requests)", () => {
    it("Errors and retries: a browser origin without cross-origin configuration: 403 ORIGIN_FORBIDDEN", async () => {
      const answer = await fixture.api.signed(fixture.merchant, UPSERT, body(), {
        headers: { Origin: "https://docs.example.com" },
      });
      expect(answer).toMatchObject({ status: 403, body: { error: { code: "ORIGIN_FORBIDDEN" } } });
    });

    it("WEBINAR_ALLOWED_ORIGINS: an allowed origin gets CORS headers and a preflight; others 403", async () => {
      const cors = await startTestServer(fixture.database, {
        WEBINAR_ALLOWED_ORIGINS: "https://docs.example.com, http://localhost:3000",
      });
      try {
        const allowed = await cors.signed(fixture.merchant, UPSERT, body(), {
          headers: { Origin: "https://docs.example.com" },
        });
        expect(allowed.status).toBe(200);
        expect(allowed.headers.get("access-control-allow-origin")).toBe("https://docs.example.com");
        const preflight = await rawRequest(cors.url, {
          method: "OPTIONS",
          path: UPSERT,
          headers: {
            Origin: "http://localhost:3000",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-api-key",
          },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers["access-control-allow-headers"]).toContain("X-Signature");
        const refused = await cors.signed(fixture.merchant, UPSERT, body(), {
          headers: { Origin: "https://evil.example" },
        });
        expect(refused.body.error.code).toBe("ORIGIN_FORBIDDEN");
        // An error answer to an allowed origin is readable by the page too.
        const conflict = await cors.signed(
          fixture.merchant,
          UPSERT,
          { externalUserId: "x", phone: null },
          { headers: { Origin: "https://docs.example.com" } },
        );
        expect(conflict.headers.get("access-control-allow-origin")).toBe("https://docs.example.com");
        expect(cors.violations).toEqual([]);
      } finally {
        await cors.close();
      }
    });
  });
});

describe("Redis nonce store (REDIS_URL)", () => {
  let database: TestDatabase;
  const prefix = `webinar-test:${randomBytes(6).toString("hex")}:`;

  beforeAll(async () => {
    database = await openTestDatabase(DATABASE_KINDS[0]!, "redis");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("replays are refused (409) and a nonce sent to two instances at once is accepted once", async () => {
    const first = await startTestServer(database, { REDIS_URL: "redis://127.0.0.1:6379" }, { redisKeyPrefix: prefix });
    const second = await startTestServer(database, { REDIS_URL: "redis://127.0.0.1:6379" }, { redisKeyPrefix: prefix });
    try {
      const merchant = await first.newMerchant();
      const reused = nonce();
      expect((await first.signed(merchant, UPSERT, { externalUserId: "r1" }, { nonce: reused })).status).toBe(200);
      expect((await second.signed(merchant, UPSERT, { externalUserId: "r2" }, { nonce: reused })).body.error.code).toBe(
        "OPEN_API_REPLAYED",
      );
      const raw = JSON.stringify({ externalUserId: "r3" });
      const { headers } = await signRequest({
        apiKey: merchant.apiKey,
        secret: merchant.secret,
        path: UPSERT,
        body: raw,
      });
      const answers = await Promise.all(
        [first.url, second.url].map((url) =>
          fetch(`${url}${UPSERT}`, { method: "POST", headers: { ...headers }, body: raw }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      // Nothing of it went to the database's nonce table.
      expect(
        await database.handle.db.selectFrom("open_api_nonces").select("nonce").where("nonce", "=", reused).execute(),
      ).toEqual([]);
      expect([...first.violations, ...second.violations]).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("Redis unreachable: 503 AUTH_DEPENDENCY_UNAVAILABLE, quickly", async () => {
    const down = await startTestServer(database, { REDIS_URL: "redis://127.0.0.1:1" }, { redisKeyPrefix: prefix });
    try {
      const merchant = await down.newMerchant();
      const started = Date.now();
      const answer = await down.signed(merchant, UPSERT, { externalUserId: "r4" });
      expect(answer).toMatchObject({ status: 503, body: { error: { code: "AUTH_DEPENDENCY_UNAVAILABLE" } } });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await down.close();
    }
  });
});
