/**
 * Two real server processes on one PostgreSQL database, as a deployment scales out: a login ticket redeemed 200
 * times at once, split across both, is exchanged exactly once; a signed request replayed to both at once is
 * accepted exactly once (409 OPEN_API_REPLAYED for every other copy), for upsert and for ticket issuing.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { operations } from "@org/webinar-types";
import { signRequest } from "@org/webinar-signing";
import { createPostgresDatabase } from "./support/databases";
import { adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

const REDEMPTIONS = 200;
const ROUNDS = 3;
const REPLAYS_PER_PROCESS = 25;

let servers: ServerProcess[] = [];
let dropDatabase: (() => Promise<void>) | undefined;
let merchant: Awaited<ReturnType<typeof adminMerchant>>;

beforeAll(async () => {
  const database = await createPostgresDatabase("two_processes");
  dropDatabase = database.drop;
  // One after the other: the first one migrates the new database.
  for (let index = 0; index < 2; index += 1)
    servers.push(await startServerProcess({ DATABASE_URL: database.url, WEBINAR_LOG_LEVEL: "warn" }));
  merchant = await adminMerchant(servers[0]!.url);
}, 120_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  servers = [];
  await dropDatabase?.();
});

async function signed(
  operationId: "upsertViewer" | "issueLoginTicket",
  body: unknown,
): Promise<{ headers: Record<string, string>; body: string }> {
  const text = JSON.stringify(body);
  const { headers } = await signRequest({
    apiKey: merchant.apiKey,
    secret: merchant.secret,
    path: operations[operationId].path,
    body: text,
  });
  return { headers: { ...headers }, body: text };
}

async function post(
  url: string,
  path: string,
  request: { headers: Record<string, string>; body: string },
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, { method: "POST", headers: request.headers, body: request.body });
  return { status: response.status, body: await response.json() };
}

/** `[status code, count]` pairs of a set of answers, e.g. `200 -: 1, 401 LOGIN_TICKET_INVALID: 199`. */
function tally(answers: { status: number; body: any }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { status, body } of answers) {
    const key = `${status} ${(body as { error?: { code: string } }).error?.code ?? "-"}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

it(`${ROUNDS} tickets, each redeemed ${REDEMPTIONS} times at once across two processes: exactly one exchange each`, async () => {
  const upsert = await post(
    servers[0]!.url,
    operations.upsertViewer.path,
    await signed("upsertViewer", { externalUserId: "two-processes" }),
  );
  expect(upsert.status).toBe(200);
  const uid = upsert.body.data.viewer.uid as number;
  for (let round = 1; round <= ROUNDS; round += 1) {
    const issued = await post(
      servers[round % 2]!.url,
      operations.issueLoginTicket.path,
      await signed("issueLoginTicket", { uid, ticketCode: merchant.ticketCode }),
    );
    expect(issued.status).toBe(200);
    const exchange = JSON.stringify({ ticketCode: merchant.ticketCode, loginTicket: issued.body.data.loginTicket });
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: REDEMPTIONS }, (_, index) =>
        post(servers[index % 2]!.url, "/w/api/session", {
          headers: { "content-type": "application/json" },
          body: exchange,
        }),
      ),
    );
    const counts = tally(answers);
    console.log(
      `two processes, round ${round}: ${REDEMPTIONS} redemptions of one ticket in ${Math.round(performance.now() - started)} ms -> ${[...counts].map(([key, value]) => `${key}: ${value}`).join(", ")}`,
    );
    expect(Object.fromEntries(counts)).toEqual({ "200 -": 1, "401 LOGIN_TICKET_INVALID": REDEMPTIONS - 1 });
  }
}, 120_000);

it.each(["upsertViewer", "issueLoginTicket"] as const)(
  `%s: one signed request replayed ${REPLAYS_PER_PROCESS} times to each process at once is accepted once`,
  async (operationId) => {
    const body =
      operationId === "upsertViewer"
        ? { externalUserId: "replayed" }
        : {
            uid: (
              await post(
                servers[0]!.url,
                operations.upsertViewer.path,
                await signed("upsertViewer", { externalUserId: "replayed-ticket" }),
              )
            ).body.data.viewer.uid,
            ticketCode: merchant.ticketCode,
          };
    const request = await signed(operationId, body);
    const answers = await Promise.all(
      Array.from({ length: REPLAYS_PER_PROCESS * 2 }, (_, index) =>
        post(servers[index % 2]!.url, operations[operationId].path, request),
      ),
    );
    const counts = tally(answers);
    console.log(
      `two processes, ${operationId}: one nonce sent ${REPLAYS_PER_PROCESS * 2} times -> ${[...counts].map(([key, value]) => `${key}: ${value}`).join(", ")}`,
    );
    expect(Object.fromEntries(counts)).toEqual({ "200 -": 1, "409 OPEN_API_REPLAYED": REPLAYS_PER_PROCESS * 2 - 1 });
  },
  60_000,
);
