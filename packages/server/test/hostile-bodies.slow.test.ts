/**
 * Property tests: hostile bodies (test/support/hostile-bodies.ts), correctly signed, through the real server
 * process over HTTP, on the embedded database and on PostgreSQL. Whatever the body, the answer is never a 5xx,
 * and every answer is one the spec documents for the operation: its status, its body schema, and an error code
 * among the operation's `x-error-codes` for that status (checked with the validator's `validateResponse`). At
 * least 10,000 bodies per operation and database; the watch page's exchange and the admin API get the same
 * treatment with fewer runs.
 *
 * Seeded and reproducible: the seed is printed at the start, fast-check prints it with any counterexample, and
 * WEBINAR_PROPERTY_SEED=<seed> replays a run.
 */
import { fc, test } from "@fast-check/vitest";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { limits, operations, type OperationId } from "@org/webinar-types";
import { signRequest } from "@org/webinar-signing";
import { adminData } from "@org/webinar-test-support/admin-client";
import { checkAnswer } from "./support/contract";
import { createPostgresDatabase, DATABASE_KINDS } from "./support/databases";
import { ADMIN_TOKEN } from "./support/harness";
import {
  batchOf,
  hostileAdminBody,
  hostileBody,
  hostileExchangeBody,
  type BodyContext,
  type SentBody,
} from "./support/hostile-bodies";
import { adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

const SEED = Number(process.env.WEBINAR_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Bodies sent at once in one property run; runs x batch = bodies per operation and database. */
const BATCH = 50;
const OPEN_API_RUNS = 200;
const OTHER_RUNS = 40;
const TICKET_CODE = "prop-webinar";
/** New viewers draw their UIDs from this narrow range, so generated UIDs often name real viewers. */
const UID_RANGE = { min: 10_000, max: 10_199 };
const context: BodyContext = {
  ticketCode: TICKET_CODE,
  uids: Array.from({ length: 40 }, (_, index) => UID_RANGE.min + index),
};
const OPERATION_IDS = Object.keys(operations) as OperationId[];
/**
 * One property's time limit. Every body is authenticated through the database (key, then nonce) before it is
 * judged; a property takes under a minute here, a few on a busy machine. Past the limit the property stops itself
 * and fails (fast-check's interrupt), so no runs go on in the background once the test has ended, and the test's
 * own timeout is only a backstop.
 */
const PROPERTY_TIME_LIMIT_MS = 480_000;
const TEST_TIMEOUT_MS = PROPERTY_TIME_LIMIT_MS + 60_000;
const propertyParameters = (numRuns: number): fc.Parameters<[SentBody[]]> => ({
  numRuns,
  seed: SEED,
  // The plugin works for any property; fast-check types it for `unknown` values only.
  plugins: [fc.interruptAfterTimeLimit(PROPERTY_TIME_LIMIT_MS, { failOnInterrupt: true }) as fc.Plugin<[SentBody[]]>],
});

console.log(`hostile bodies: seed ${SEED} (replay with WEBINAR_PROPERTY_SEED=${SEED})`);

describe.each(DATABASE_KINDS)("hostile bodies through the real server on %s", (kind) => {
  let server: ServerProcess;
  let credentials: { apiKey: string; secret: string };
  let dropDatabase: (() => Promise<void>) | undefined;
  const statuses = new Map<string, number>();
  const count = (label: string, status: number) =>
    statuses.set(`${label} ${status}`, (statuses.get(`${label} ${status}`) ?? 0) + 1);

  beforeAll(async () => {
    let storage: Record<string, string> = { WEBINAR_DATA_DIR: "memory:" };
    if (kind === "postgres") {
      const database = await createPostgresDatabase("hostile");
      dropDatabase = database.drop;
      storage = { DATABASE_URL: database.url };
    }
    server = await startServerProcess({
      ...storage,
      WEBINAR_LOG_LEVEL: "warn",
      WEBINAR_UID_MIN: String(UID_RANGE.min),
      WEBINAR_UID_MAX: String(UID_RANGE.max),
    });
    credentials = await adminMerchant(server, { ticketCode: TICKET_CODE });
    // Viewers for the generated UIDs to find, and replay data for the detail query.
    for (let index = 0; index < 20; index += 1)
      await signedPost("upsertViewer", JSON.stringify({ externalUserId: `prop-seed-${index}` }));
    for (const action of ["START", "END"] as const)
      await adminData(
        server.admin.POST("/admin/v1/webinars/{ticketCode}/live", {
          params: { path: { ticketCode: TICKET_CODE } },
          body: { action },
        }),
      );
  }, 120_000);

  afterAll(async () => {
    console.log(`hostile bodies on ${kind}: ${[...statuses].map(([key, value]) => `${key}: ${value}`).join(", ")}`);
    const errors = server?.logs().filter((record) => record.level === "error" || record.level === "fatal") ?? [];
    await server?.stop();
    await dropDatabase?.();
    expect(errors).toEqual([]);
  });

  async function signedPost(operationId: OperationId, body: string): Promise<Response> {
    const path = operations[operationId].path;
    const { headers } = await signRequest({ ...credentials, path, body });
    return fetch(`${server.url}${path}`, { method: "POST", headers: { ...headers }, body });
  }

  /**
   * The answer to a body, or undefined when the server closed the connection of a body over the limit before the
   * client had sent it all. The server refuses such a body before reading it and drops the rest as it arrives, for
   * at most half a second (@hono/node-server's drain); a client still sending then, as on a busy machine with
   * megabytes in flight at once, finds the connection closed. That is a refusal too, never a 5xx. A connection
   * lost under a body within the limit (a kept-alive socket the server closed as the client reused it) is what a
   * client retries, signed anew as @org/webinar-client does: the retry must be answered.
   */
  async function answerOrClosed(operationId: OperationId, body: string): Promise<Response | undefined> {
    try {
      return await signedPost(operationId, body);
    } catch (error) {
      const code = ((error as Error).cause as { code?: string } | undefined)?.code;
      if (code !== "EPIPE" && code !== "ECONNRESET" && code !== "UND_ERR_SOCKET") throw error;
      if (Buffer.byteLength(body) > limits.maxBodyBytes) return undefined;
      return signedPost(operationId, body);
    }
  }

  for (const operationId of OPERATION_IDS) {
    test.prop([batchOf(hostileBody(operationId, context), BATCH)], propertyParameters(OPEN_API_RUNS))(
      `${operationId}: ${OPEN_API_RUNS * BATCH} signed hostile bodies, never a 5xx, every answer documented for ${operationId}`,
      async (bodies) => {
        await Promise.all(
          bodies.map(async ({ text: body }) => {
            const response = await answerOrClosed(operationId, body);
            if (response === undefined) {
              count(operationId, 0);
              return;
            }
            const text = await response.text();
            count(operationId, response.status);
            expect(response.status, `${body.slice(0, 200)} -> ${text.slice(0, 300)}`).toBeLessThan(500);
            expect(
              await checkAnswer(
                operations[operationId].path,
                new Response(text, { status: response.status, headers: response.headers }),
              ),
            ).toEqual([]);
          }),
        );
      },
      TEST_TIMEOUT_MS,
    );
  }

  /**
   * A connection the server closed under a body still arriving counts as a refusal above; this makes sure the
   * refusal is also answered: an oversize body sent alone, on a quiet connection, reaches the server whole within
   * its drain, and the answer is 413 (or 400) with the documented error envelope. A few attempts per operation
   * allow for a busy machine; an attempt that is answered must be that refusal.
   */
  test(
    "an oversize body sent alone is answered 413 or 400, documented, not only a closed connection",
    async () => {
      const oversize = JSON.stringify({ padding: "x".repeat(limits.maxBodyBytes) });
      for (const operationId of OPERATION_IDS) {
        let answered: Response | undefined;
        for (let attempt = 0; attempt < 5 && answered === undefined; attempt += 1)
          answered = await answerOrClosed(operationId, oversize);
        expect(answered, `${operationId}: every oversize body was cut, none answered`).toBeDefined();
        const text = await answered!.text();
        count(operationId, answered!.status);
        expect([413, 400], `${operationId}: ${text.slice(0, 300)}`).toContain(answered!.status);
        const copy = new Response(text, { status: answered!.status, headers: answered!.headers });
        expect(await checkAnswer(operations[operationId].path, copy)).toEqual([]);
      }
    },
    TEST_TIMEOUT_MS,
  );

  test.prop([batchOf(hostileExchangeBody(TICKET_CODE), BATCH)], propertyParameters(OTHER_RUNS))(
    `watch-page exchange: ${OTHER_RUNS * BATCH} hostile bodies, only 400 REQUEST_INVALID or 401 LOGIN_TICKET_INVALID`,
    async (bodies) => {
      await Promise.all(
        bodies.map(async ({ text: body }) => {
          const response = await fetch(`${server.url}/w/api/session`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          const answer = (await response.json()) as { error?: { code: string } };
          count("exchange", response.status);
          expect([response.status, answer.error?.code]).toSatisfy(
            ([status, code]: [number, string]) =>
              (status === 400 && code === "REQUEST_INVALID") || (status === 401 && code === "LOGIN_TICKET_INVALID"),
          );
        }),
      );
    },
    TEST_TIMEOUT_MS,
  );

  const ADMIN_TARGETS: [string, string, string[]][] = [
    ["POST", "/admin/v1/merchants", ["name", "watchOrigin"]],
    [
      "POST",
      `/admin/v1/webinars/${TICKET_CODE}/playback-sessions`,
      ["subject", "mode", "watchSeconds", "deviceType", "protocol", "startedAt"],
    ],
    ["PUT", "/admin/v1/moderation/blocked-terms", ["terms"]],
  ];
  for (const [method, path, fields] of ADMIN_TARGETS) {
    test.prop([batchOf(hostileAdminBody(fields), BATCH)], propertyParameters(OTHER_RUNS))(
      `admin ${method} ${path}: ${OTHER_RUNS * BATCH} hostile bodies, never a 5xx, always the error envelope`,
      async (bodies) => {
        await Promise.all(
          bodies.map(async ({ text: body }) => {
            const response = await fetch(`${server.url}${path}`, {
              method,
              headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
              body,
            });
            const answer = (await response.json()) as { requestId?: string; error?: { code: string; message: string } };
            count(`admin ${path}`, response.status);
            expect(response.status, JSON.stringify(answer).slice(0, 300)).toBeLessThan(500);
            if (response.status >= 400)
              expect(answer).toMatchObject({
                requestId: expect.any(String),
                error: { code: expect.any(String), message: expect.any(String) },
              });
          }),
        );
      },
      TEST_TIMEOUT_MS,
    );
  }
});
