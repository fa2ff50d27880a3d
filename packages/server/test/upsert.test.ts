/**
 * Create or update external viewer (upsertViewer), end to end over HTTP through @org/webinar-client, on PGlite and
 * on PostgreSQL: every row of the rules table, the field rules, moderation, UID allocation and concurrency.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { limits } from "@org/webinar-types";
import { DATABASE_KINDS } from "./support/databases";
import { useServerPerFile } from "./support/server-per-file";
import { apiError, startTestServer, type Merchant, type TestServer } from "./support/harness";

/** A moderation service whose behaviour each test sets (the protocol of src/viewers/moderation.ts). */
function startModerationService(): Promise<{
  server: Server;
  url: string;
  behave: (mode: "allow" | "reject" | "error" | "slow" | "garbage") => void;
  texts: string[];
}> {
  let mode = "allow";
  const texts: string[] = [];
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      texts.push((JSON.parse(body) as { text: string }).text);
      if (mode === "slow") return void setTimeout(() => res.end(JSON.stringify({ allowed: true })), 1500);
      if (mode === "error") return void res.writeHead(500).end("boom");
      if (mode === "garbage") return void res.writeHead(200, { "content-type": "application/json" }).end('{"ok":1}');
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(mode === "allow" ? { allowed: true } : { allowed: false, matches: ["bad-word"] }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/moderate`,
        behave: (next) => void (mode = next),
        texts,
      }),
    ),
  );
}

describe.each(DATABASE_KINDS)("upsert (upsertViewer) on %s", (kind) => {
  const fixture = useServerPerFile(kind, "upsert");
  let fresh = 0;
  const externalId = (label: string) => `${label}-${++fresh}`;
  const phone = () => `139${String(10_000_000 + Math.floor(Math.random() * 89_999_999)).slice(0, 8)}`;

  describe("rules table", () => {
    it("upsertViewer: only externalUserId: creates a viewer with phone and displayName null, uid in range", async () => {
      const id = externalId("only");
      const result = await fixture.merchant.client.upsertViewer({ externalUserId: id });
      expect(result.created).toBe(true);
      expect(result.viewer).toEqual({ uid: result.viewer.uid, externalUserId: id, phone: null, displayName: null });
      expect(result.viewer.uid).toBeGreaterThanOrEqual(limits.uidMin);
      expect(result.viewer.uid).toBeLessThanOrEqual(limits.uidMax);
    });

    it("upsertViewer: repeated call with same external id: the existing viewer, created false only after the first", async () => {
      const id = externalId("repeat");
      const first = await fixture.merchant.client.upsertViewer({
        externalUserId: id,
        phone: phone(),
        displayName: "Ann",
      });
      const second = await fixture.merchant.client.upsertViewer({ externalUserId: id });
      expect(first.created).toBe(true);
      expect(second.created).toBe(false);
      expect(second.viewer).toEqual(first.viewer);
    });

    it("upsertViewer: only externalUserId on an existing viewer keeps phone and name", async () => {
      const id = externalId("keep");
      const bound = phone();
      await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: bound, displayName: "Bob" });
      const again = await fixture.merchant.client.upsertViewer({ externalUserId: id });
      expect(again.viewer).toMatchObject({ phone: bound, displayName: "Bob" });
    });

    it("upsertViewer: same external id, current phone: idempotent success, same viewer", async () => {
      const id = externalId("same-phone");
      const bound = phone();
      const first = await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: bound });
      const second = await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: bound });
      expect(second).toMatchObject({ created: false, viewer: first.viewer });
    });

    it("upsertViewer: a repeat that changes nothing writes nothing: the row is not even locked", async () => {
      const id = externalId("untouched");
      const bound = phone();
      await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: bound, displayName: "Eve" });
      // A row lock (what ON CONFLICT DO UPDATE takes before its WHERE says no) sets xmax to the locker's
      // transaction; a row nobody wrote or locked since its insert keeps 0.
      const stamp = () =>
        sql<{ xmin: string; xmax: string }>`select xmin::text, xmax::text from viewers
          where merchant_id = ${fixture.merchant.merchantId} and external_user_id = ${id}`
          .execute(fixture.database.handle.db)
          .then((result) => result.rows[0]);
      const before = await stamp();
      await fixture.merchant.client.upsertViewer({ externalUserId: id });
      await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: bound, displayName: "Eve" });
      expect(await stamp()).toEqual({ xmin: before?.xmin, xmax: "0" });
      await fixture.merchant.client.upsertViewer({ externalUserId: id, displayName: "Eve Two" });
      expect((await stamp())?.xmin).not.toBe(before?.xmin);
    });

    it("upsertViewer: same external id, unused new phone: rebinds, uid and external id unchanged, old phone released", async () => {
      const id = externalId("rebind");
      const oldPhone = phone();
      const newPhone = phone();
      const first = await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: oldPhone });
      const rebound = await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: newPhone });
      expect(rebound).toMatchObject({
        created: false,
        viewer: { uid: first.viewer.uid, externalUserId: id, phone: newPhone },
      });
      const other = await fixture.merchant.client.upsertViewer({
        externalUserId: externalId("takes-old"),
        phone: oldPhone,
      });
      expect(other.viewer.phone).toBe(oldPhone);
    });

    it("upsertViewer: binding a phone to a viewer that had none", async () => {
      const id = externalId("bind");
      await fixture.merchant.client.upsertViewer({ externalUserId: id });
      const bound = phone();
      const result = await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: bound });
      expect(result.viewer.phone).toBe(bound);
    });

    it("upsertViewer: phone used by another viewer: 409 VIEWER_IDENTITY_CONFLICT, nothing modified", async () => {
      const holderPhone = phone();
      const holder = await fixture.merchant.client.upsertViewer({
        externalUserId: externalId("holder"),
        phone: holderPhone,
        displayName: "Holder",
      });
      const id = externalId("thief");
      const thief = await fixture.merchant.client.upsertViewer({ externalUserId: id, displayName: "Before" });
      const error = await apiError(
        fixture.merchant.client.upsertViewer({ externalUserId: id, phone: holderPhone, displayName: "After" }),
      );
      expect(error).toMatchObject({ status: 409, code: "VIEWER_IDENTITY_CONFLICT" });
      expect((await fixture.merchant.client.upsertViewer({ externalUserId: id })).viewer).toEqual(thief.viewer);
      expect(
        (await fixture.merchant.client.upsertViewer({ externalUserId: holder.viewer.externalUserId })).viewer,
      ).toEqual(holder.viewer);
    });

    it("upsertViewer: new external id with a phone already in the merchant: 409, no viewer created, no merging", async () => {
      const taken = phone();
      await fixture.merchant.client.upsertViewer({ externalUserId: externalId("has-phone"), phone: taken });
      const id = externalId("newcomer");
      expect(await apiError(fixture.merchant.client.upsertViewer({ externalUserId: id, phone: taken }))).toMatchObject({
        status: 409,
        code: "VIEWER_IDENTITY_CONFLICT",
      });
      const later = await fixture.merchant.client.upsertViewer({ externalUserId: id });
      expect(later).toMatchObject({ created: true, viewer: { phone: null } });
    });

    it("upsertViewer: new external id with the phone of a viewer without external id: 409 (no merging)", async () => {
      // A phone-only viewer (created by the watch page's phone login in a full deployment) is inserted directly.
      const taken = phone();
      await fixture.database.handle.db
        .insertInto("viewers")
        .values({
          merchant_id: fixture.merchant.merchantId,
          uid: 9_999_999,
          external_user_id: null,
          phone: taken,
          display_name: null,
          created_at: new Date(),
          updated_at: new Date(),
        })
        .execute();
      expect(
        await apiError(fixture.merchant.client.upsertViewer({ externalUserId: externalId("merge"), phone: taken })),
      ).toMatchObject({ status: 409, code: "VIEWER_IDENTITY_CONFLICT" });
    });

    it("upsertViewer: phone null: 400 REQUEST_INVALID (a bound phone cannot be cleared)", async () => {
      const id = externalId("null-phone");
      const bound = phone();
      await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: bound });
      const error = await apiError(
        fixture.merchant.client.upsertViewer({ externalUserId: id, phone: null as unknown as string }),
      );
      expect(error).toMatchObject({ status: 400, code: "REQUEST_INVALID" });
      expect((await fixture.merchant.client.upsertViewer({ externalUserId: id })).viewer.phone).toBe(bound);
    });

    it.each([
      ["empty", ""],
      ["whitespace-only", "   "],
    ])("upsertViewer: phone %s keeps the old value", async (_label, value) => {
      const id = externalId("blank-phone");
      const bound = phone();
      await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: bound });
      expect((await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: value })).viewer.phone).toBe(
        bound,
      );
    });

    it("upsertViewer: the external id cannot be rewritten: another external id is another viewer", async () => {
      const a = await fixture.merchant.client.upsertViewer({ externalUserId: externalId("a") });
      const b = await fixture.merchant.client.upsertViewer({ externalUserId: externalId("b") });
      expect(a.viewer.uid).not.toBe(b.viewer.uid);
    });

    it("merchant isolation: viewer mappings are per merchant: same external id and phone in two merchants are two viewers", async () => {
      const other = await fixture.api.newMerchant();
      const id = externalId("shared");
      const sharedPhone = phone();
      const mine = await fixture.merchant.client.upsertViewer({ externalUserId: id, phone: sharedPhone });
      const theirs = await other.client.upsertViewer({ externalUserId: id, phone: sharedPhone });
      expect(theirs.created).toBe(true);
      expect(mine.created).toBe(true);
    });
  });

  describe("field rules", () => {
    it("Viewer: externalUserId is trimmed and case-sensitive", async () => {
      const id = externalId("Trim");
      const padded = await fixture.merchant.client.upsertViewer({ externalUserId: `  ${id}\t` });
      expect(padded.viewer.externalUserId).toBe(id);
      expect((await fixture.merchant.client.upsertViewer({ externalUserId: id })).viewer.uid).toBe(padded.viewer.uid);
      expect((await fixture.merchant.client.upsertViewer({ externalUserId: id.toLowerCase() })).created).toBe(true);
    });

    it("Limits: externalUserId length counts code points: 191 emoji pass, 192 are 400", async () => {
      const prefix = `${++fresh}-`;
      const ok = prefix + "😀".repeat(191 - prefix.length);
      expect((await fixture.merchant.client.upsertViewer({ externalUserId: ok })).viewer.externalUserId).toBe(ok);
      expect(await apiError(fixture.merchant.client.upsertViewer({ externalUserId: `${ok}x` }))).toMatchObject({
        status: 400,
        code: "REQUEST_INVALID",
      });
    });

    it("upsertViewer: displayName: omitted keeps, null clears, a string is trimmed", async () => {
      const id = externalId("name");
      expect(
        (await fixture.merchant.client.upsertViewer({ externalUserId: id, displayName: "  张三  " })).viewer
          .displayName,
      ).toBe("张三");
      expect((await fixture.merchant.client.upsertViewer({ externalUserId: id })).viewer.displayName).toBe("张三");
      expect(
        (await fixture.merchant.client.upsertViewer({ externalUserId: id, displayName: null })).viewer.displayName,
      ).toBeNull();
    });

    it("Limits: displayName of 80 emoji (code points) passes", async () => {
      const name = "🎉".repeat(80);
      expect(
        (await fixture.merchant.client.upsertViewer({ externalUserId: externalId("emoji"), displayName: name })).viewer
          .displayName,
      ).toBe(name);
    });
  });

  describe("moderation (upsertViewer displayName, Errors and retries)", () => {
    let moderation: Awaited<ReturnType<typeof startModerationService>>;
    let moderated: TestServer;
    let moderatedMerchant: Merchant;

    beforeAll(async () => {
      moderation = await startModerationService();
      moderated = await startTestServer(fixture.database, {
        WEBINAR_MODERATION_URL: moderation.url,
        WEBINAR_MODERATION_TIMEOUT_MS: "300",
      });
      moderatedMerchant = await moderated.newMerchant();
    });
    afterAll(async () => {
      await moderated?.close();
      await new Promise((resolve) => moderation?.server.close(resolve));
    });
    afterEach(async () => {
      expect(moderated.violations).toEqual([]);
      moderation.behave("allow");
      await fixture.api.admin("PUT", "/admin/v1/moderation/blocked-terms", { terms: [] });
    });

    it("Errors and retries: a blocked term: 400 CONTENT_SENSITIVE with details.matches, nothing changed", async () => {
      await fixture.api.admin("PUT", "/admin/v1/moderation/blocked-terms", { terms: ["Forbidden", "spam"] });
      const id = externalId("blocked");
      await fixture.merchant.client.upsertViewer({ externalUserId: id, displayName: "Fine" });
      const error = await apiError(
        fixture.merchant.client.upsertViewer({ externalUserId: id, displayName: "so FORBIDDEN here" }),
      );
      expect(error).toMatchObject({ status: 400, code: "CONTENT_SENSITIVE", details: { matches: ["Forbidden"] } });
      expect((await fixture.merchant.client.upsertViewer({ externalUserId: id })).viewer.displayName).toBe("Fine");
    });

    it("Errors and retries: blocked terms match full-width letters too (NFKC)", async () => {
      await fixture.api.admin("PUT", "/admin/v1/moderation/blocked-terms", { terms: ["spam"] });
      expect(
        await apiError(
          fixture.merchant.client.upsertViewer({ externalUserId: externalId("fw"), displayName: "ＳＰＡＭ" }),
        ),
      ).toMatchObject({ code: "CONTENT_SENSITIVE" });
    });

    it("the external service allows: the name is set, and it saw the trimmed name", async () => {
      const result = await moderatedMerchant.client.upsertViewer({
        externalUserId: externalId("ext-ok"),
        displayName: "  Nice name ",
      });
      expect(result.viewer.displayName).toBe("Nice name");
      expect(moderation.texts.at(-1)).toBe("Nice name");
    });

    it("Errors and retries: the external service rejects: 400 CONTENT_SENSITIVE with its matches", async () => {
      moderation.behave("reject");
      const error = await apiError(
        moderatedMerchant.client.upsertViewer({ externalUserId: externalId("ext-no"), displayName: "bad-word" }),
      );
      expect(error).toMatchObject({ status: 400, code: "CONTENT_SENSITIVE", details: { matches: ["bad-word"] } });
    });

    it.each(["error", "slow", "garbage"] as const)(
      "Errors and retries: the external service answers %s: 503 CONTENT_MODERATION_UNAVAILABLE, nothing created",
      async (mode) => {
        moderation.behave(mode);
        const id = externalId(`ext-${mode}`);
        const error = await apiError(
          moderatedMerchant.client.upsertViewer({ externalUserId: id, displayName: "Name" }),
        );
        expect(error).toMatchObject({ status: 503, code: "CONTENT_MODERATION_UNAVAILABLE" });
        moderation.behave("allow");
        expect((await moderatedMerchant.client.upsertViewer({ externalUserId: id })).created).toBe(true);
      },
    );

    it("no displayName: moderation is not asked", async () => {
      moderation.behave("error");
      expect((await moderatedMerchant.client.upsertViewer({ externalUserId: externalId("no-name") })).created).toBe(
        true,
      );
    });
  });

  describe("UIDs (Viewer)", () => {
    it("are spread over the range, not sequential", async () => {
      const uids: number[] = [];
      for (let i = 0; i < 12; i += 1)
        uids.push((await fixture.merchant.client.upsertViewer({ externalUserId: externalId("spread") })).viewer.uid);
      const sorted = [...uids].sort((a, b) => a - b);
      const gaps = sorted.slice(1).map((uid, i) => uid - sorted[i]!);
      expect(new Set(uids).size).toBe(uids.length);
      expect(gaps.every((gap) => gap === 1)).toBe(false);
      expect(Math.max(...gaps)).toBeGreaterThan(1000);
    });

    it("Errors and retries: a full range: every UID used once, then 409 VIEWER_UID_EXHAUSTED; existing viewers still returned", async () => {
      const narrow = await startTestServer(fixture.database, { WEBINAR_UID_MIN: "10000", WEBINAR_UID_MAX: "10004" });
      try {
        const small = await narrow.newMerchant();
        const uids: number[] = [];
        for (let i = 0; i < 5; i += 1)
          uids.push((await small.client.upsertViewer({ externalUserId: `full-${i}` })).viewer.uid);
        expect(uids.sort()).toEqual([10000, 10001, 10002, 10003, 10004]);
        expect(await apiError(small.client.upsertViewer({ externalUserId: "one-too-many" }))).toMatchObject({
          status: 409,
          code: "VIEWER_UID_EXHAUSTED",
        });
        expect((await small.client.upsertViewer({ externalUserId: "full-3" })).created).toBe(false);
        expect(narrow.violations).toEqual([]);
      } finally {
        await narrow.close();
      }
    });
  });

  describe("concurrency", () => {
    it("20 parallel upserts of one new external id and phone: all succeed, exactly one created, one uid", async () => {
      const id = externalId("race");
      const samePhone = phone();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          fixture.merchant.client.upsertViewer({ externalUserId: id, phone: samePhone }),
        ),
      );
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(results.map((result) => result.viewer.uid)).size).toBe(1);
      expect(results.every((result) => result.viewer.phone === samePhone)).toBe(true);
    });

    it("20 parallel upserts of one new external id without phone: all succeed, one created, one uid", async () => {
      const id = externalId("race-plain");
      const results = await Promise.all(
        Array.from({ length: 20 }, () => fixture.merchant.client.upsertViewer({ externalUserId: id })),
      );
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(results.map((result) => result.viewer.uid)).size).toBe(1);
    });

    it("20 new external ids racing for one phone: exactly one gets it, the rest 409", async () => {
      const contested = phone();
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          fixture.merchant.client.upsertViewer({ externalUserId: externalId(`phone-race-${i}`), phone: contested }),
        ),
      );
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      const codes = results.flatMap((result) =>
        result.status === "rejected" ? [(result.reason as { code: string }).code] : [],
      );
      expect(codes).toEqual(Array(19).fill("VIEWER_IDENTITY_CONFLICT"));
    });
  });
});
