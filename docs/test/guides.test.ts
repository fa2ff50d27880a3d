/**
 * Runs every server guide's sample app (`guides/samples/*.ts`) as a reader would, `tsx <sample>` against the built
 * packages, and calls it as a merchant backend does, with `@org/webinar-client`: signed calls are verified and
 * answered, mistakes and replays are refused, the app's own routes still answer. Two processes of one sample on one
 * PostgreSQL database, and on one Redis, refuse a request replayed from one to the other.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createWebinarClient, WebinarApiError } from "@org/webinar-client";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const apiKey = `wk_guide_${randomBytes(6).toString("hex")}`;
const secret = randomBytes(18).toString("base64url");
const UPSERT = "/api/v1/open/viewers/upsert";

interface RunningSample {
  baseUrl: string;
  stop(): Promise<void>;
}

const running: RunningSample[] = [];
afterAll(async () => {
  await Promise.all(running.splice(0).map((sample) => sample.stop()));
});

/** Starts `guides/samples/<name>.ts` on a free port with the test's API key; resolves once it listens. */
async function startSample(name: string, env: Record<string, string> = {}): Promise<RunningSample> {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", join(docsDir, "guides", "samples", `${name}.ts`)],
    {
      cwd: docsDir,
      env: { ...inherited, PORT: "0", WEBINAR_API_KEY: apiKey, WEBINAR_API_SECRET: secret, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const exited = once(child, "exit");
  const listening = new Promise<string>((found) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url !== undefined) found(url.replace(/\/$/, ""));
    });
  });
  const baseUrl = await Promise.race([
    listening,
    exited.then(() => Promise.reject(new Error(`samples/${name}.ts exited before listening:\n${errors}`))),
  ]);
  const sample = {
    baseUrl,
    async stop() {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
  running.push(sample);
  return sample;
}

/** One signed upsert as bytes on the wire, signed with node:crypto by the published algorithm, to send as is. */
function signedUpsert(body: string, key = { apiKey, secret }): RequestInit {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString("hex");
  const bodyHash = createHash("sha256").update(body).digest("hex");
  const canonical = [key.apiKey, "POST", UPSERT, timestamp, nonce, bodyHash].join("\n");
  const signature = createHmac("sha256", key.secret).update(canonical).digest("hex");
  return {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-API-Key": key.apiKey,
      "X-Timestamp": timestamp,
      "X-Nonce": nonce,
      "X-Signature": signature,
    },
    body,
  };
}

const errorCodeOf = async (call: Promise<unknown>) =>
  call.then(
    () => "no error",
    (error: unknown) => (error instanceof WebinarApiError ? `${error.status} ${error.code}` : String(error)),
  );

describe.each(["express", "fastify", "hono", "node-http"])("the %s guide's sample app", (name) => {
  let sample: RunningSample;
  beforeAll(async () => {
    sample = await startSample(name);
  }, 60_000);

  it("answers signed calls of @org/webinar-client: the viewer is upserted with the validated, trimmed body", async () => {
    const client = createWebinarClient({ baseUrl: sample.baseUrl, apiKey, secret });
    const first = await client.upsertViewer({ externalUserId: `  crm-${name}  `, displayName: "Alice Chen" });
    expect(first).toEqual({
      viewer: { uid: expect.any(Number), externalUserId: `crm-${name}`, phone: null, displayName: "Alice Chen" },
      created: true,
    });
    expect(first.requestId).toMatch(/^req_/);
    const again = await client.upsertViewer({ externalUserId: `crm-${name}` });
    expect(again).toMatchObject({ viewer: { uid: first.viewer.uid, displayName: "Alice Chen" }, created: false });
    const ticket = await client.issueLoginTicket({ uid: first.viewer.uid, ticketCode: "WBN8K2QX" });
    expect(ticket.loginUrl).toContain(`#login_ticket=${ticket.loginTicket}`);
  });

  it("the handler's error answers reach the client as WebinarApiError with the spec's code", async () => {
    const client = createWebinarClient({ baseUrl: sample.baseUrl, apiKey, secret });
    expect(await errorCodeOf(client.getWatchOverview({ ticketCode: "WBN8K2QX", playbackMode: "ALL" }))).toBe(
      "404 WEBINAR_NOT_FOUND",
    );
    expect(await errorCodeOf(client.issueLoginTicket({ uid: 9_999_999, ticketCode: "WBN8K2QX" }))).toBe(
      "404 VIEWER_NOT_FOUND",
    );
  });

  it("refuses what the verifier refuses: a wrong secret (401), an invalid body (400), a replay (409)", async () => {
    const wrongSecret = createWebinarClient({ baseUrl: sample.baseUrl, apiKey, secret: `${secret}x` });
    expect(await errorCodeOf(wrongSecret.upsertViewer({ externalUserId: "crm-1" }))).toBe("401 OPEN_API_UNAUTHORIZED");
    const client = createWebinarClient({ baseUrl: sample.baseUrl, apiKey, secret });
    expect(await errorCodeOf(client.upsertViewer({ externalUserId: "crm-1", phone: null } as never))).toBe(
      "400 REQUEST_INVALID",
    );
    const request = signedUpsert('{"externalUserId":"crm-replayed"}');
    expect((await fetch(`${sample.baseUrl}${UPSERT}`, request)).status).toBe(200);
    const replay = await fetch(`${sample.baseUrl}${UPSERT}`, request);
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ error: { code: "OPEN_API_REPLAYED" } });
  });

  it("the app's own route answers as before", async () => {
    const hello = await fetch(`${sample.baseUrl}/hello`);
    expect(hello.status).toBe(200);
    expect(hello.headers.get("x-request-id")).toBeNull();
  });
});

describe("two processes of a sample share the nonce store", () => {
  const database = `docs_guides_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/postgres" });
  const redis = new Redis({ host: "127.0.0.1", port: 6379 });

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
  });

  afterAll(async () => {
    await Promise.all(running.splice(0).map((sample) => sample.stop()));
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    const keys = await redis.keys(`webinar:nonce:${apiKey}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it.each([
    [
      "PostgreSQL (DATABASE_URL)",
      "express",
      () => ({ DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}` }),
    ],
    ["Redis (REDIS_URL)", "hono", () => ({ REDIS_URL: "redis://127.0.0.1:6379" })],
  ])(
    "%s: a request accepted by one %s process is refused by the other (409 OPEN_API_REPLAYED)",
    async (_store, name, env) => {
      const [first, second] = await Promise.all([startSample(name, env()), startSample(name, env())]);
      const request = signedUpsert('{"externalUserId":"crm-shared"}');
      expect((await fetch(`${first!.baseUrl}${UPSERT}`, request)).status).toBe(200);
      const replay = await fetch(`${second!.baseUrl}${UPSERT}`, request);
      expect(replay.status).toBe(409);
      expect(await replay.json()).toMatchObject({ error: { code: "OPEN_API_REPLAYED" } });
    },
  );
});
