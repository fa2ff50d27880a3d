/**
 * Two real server processes on one PostgreSQL database, as a deployment scales out: a login ticket redeemed 200
 * times at once, split across both, is exchanged exactly once; a signed request replayed to both at once is
 * accepted exactly once (409 OPEN_API_REPLAYED for every other copy), for upsert and for ticket issuing; one
 * viewer's tabs heartbeating to both processes at once are credited each stretch of time once.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { operations } from "@org/webinar-types";
import { signRequest } from "@org/webinar-signing";
import { createPostgresDatabase } from "./support/databases";
import { adminData } from "@org/webinar-test-support/admin-client";
import { adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

const REDEMPTIONS = 200;
const ROUNDS = 3;
const REPLAYS_PER_PROCESS = 25;

let servers: ServerProcess[] = [];
let dropDatabase: (() => Promise<void>) | undefined;
let databaseUrl: string;
let merchant: Awaited<ReturnType<typeof adminMerchant>>;

beforeAll(async () => {
  const database = await createPostgresDatabase("two_processes");
  dropDatabase = database.drop;
  databaseUrl = database.url;
  // One after the other: the first one migrates the new database.
  for (let index = 0; index < 2; index += 1)
    servers.push(await startServerProcess({ DATABASE_URL: database.url, WEBINAR_LOG_LEVEL: "warn" }));
  merchant = await adminMerchant(servers[0]!);
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

const TABS = 4;
const HEARTBEAT_ROUNDS = 10;

/** A watch-page API call with the viewer's session cookie. */
async function watchCall(
  url: string,
  path: string,
  cookie: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  return post(url, path, { headers: { "content-type": "application/json", cookie }, body: JSON.stringify(body) });
}

/** A viewer's watch cookie for the webinar, through a login ticket issued by one process and exchanged at the other. */
async function viewerCookie(externalUserId: string, ticketCode: string): Promise<{ uid: number; cookie: string }> {
  const upsert = await post(
    servers[0]!.url,
    operations.upsertViewer.path,
    await signed("upsertViewer", { externalUserId }),
  );
  const uid = upsert.body.data.viewer.uid as number;
  const issued = await post(
    servers[0]!.url,
    operations.issueLoginTicket.path,
    await signed("issueLoginTicket", { uid, ticketCode }),
  );
  const exchange = await fetch(`${servers[1]!.url}/w/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ticketCode, loginTicket: issued.body.data.loginTicket }),
  });
  expect(exchange.status).toBe(200);
  return { uid, cookie: exchange.headers.get("set-cookie")!.split(";")[0]! };
}

/** A webinar of the merchant made through the first process, its live started through `starter`. */
async function newLiveWebinar(starter: ServerProcess): Promise<{ ticketCode: string }> {
  const { ticketCode } = await adminData(
    servers[0]!.admin.POST("/admin/v1/merchants/{merchantId}/webinars", {
      params: { path: { merchantId: merchant.merchantId } },
      body: {},
    }),
  );
  const started = await starter.admin.POST("/admin/v1/webinars/{ticketCode}/live", {
    params: { path: { ticketCode } },
    body: { action: "START" },
  });
  expect(started.response.status).toBe(200);
  return { ticketCode };
}

it(`one viewer in ${TABS} tabs, each heartbeat sent to both processes at once: each stretch of time credited once`, async () => {
  const { ticketCode } = await newLiveWebinar(servers[1]!);
  const { uid, cookie } = await viewerCookie("two-process-tabs", ticketCode);
  const tabs: string[] = [];
  for (let tab = 0; tab < TABS; tab += 1) {
    const started = await watchCall(servers[tab % 2]!.url, "/w/api/playback/start", cookie, {
      mode: "LIVE",
      protocol: "HLS",
      deviceType: "DESKTOP",
    });
    expect(started.status).toBe(200);
    tabs.push(started.body.playbackId as string);
  }
  const credited = new Map(tabs.map((id) => [id, 0]));
  for (let round = 0; round <= HEARTBEAT_ROUNDS; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const last = round === HEARTBEAT_ROUNDS;
    const answers = await Promise.all(
      tabs.flatMap((playbackId) =>
        servers.map((server) =>
          watchCall(server.url, `/w/api/playback/${last ? "stop" : "heartbeat"}`, cookie, {
            playbackId,
            playing: true,
          }),
        ),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      credited.set(answer.body.playbackId, credited.get(answer.body.playbackId)! + answer.body.creditedSeconds);
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const sessions = await client.query<{ id: string; watch_seconds: number; started_at: Date }>(
      "select id, watch_seconds, started_at from playback_sessions where id = any($1) and ended_at is not null",
      [tabs],
    );
    const subject = await client.query<{ live_seconds: string; credited_until: Date }>(
      `select s.live_seconds, s.credited_until from watch_subject_totals s join webinars w on w.id = s.webinar_id
       where w.ticket_code = $1 and s.scope = 'LIVE' and s.subject_key = $2`,
      [ticketCode, `u:${uid}`],
    );
    const totals = await client.query<{ watch_seconds: string }>(
      `select t.watch_seconds from watch_totals t join webinars w on w.id = t.webinar_id
       where w.ticket_code = $1 and t.scope = 'LIVE' and t.kind = 'REGISTERED'`,
      [ticketCode],
    );
    expect(sessions.rows).toHaveLength(TABS);
    // What the answers credited is what the sessions hold, and what the viewer's and the webinar's totals hold.
    for (const row of sessions.rows) expect(row.watch_seconds).toBe(credited.get(row.id));
    const sum = sessions.rows.reduce((total, row) => total + row.watch_seconds, 0);
    expect(Number(subject.rows[0]!.live_seconds)).toBe(sum);
    expect(Number(totals.rows[0]!.watch_seconds)).toBe(sum);
    // The viewer was credited from its first start to the end of its last credit, each moment once: never above
    // that span; below it by at most a second per tab (whole seconds of each tab) and the moments between the
    // tabs' starts (lost when a later tab reports first).
    const firstStart = Math.min(...sessions.rows.map((row) => row.started_at.getTime()));
    const span = (subject.rows[0]!.credited_until.getTime() - firstStart) / 1000;
    console.log(
      `two processes, ${TABS} tabs of one viewer, ${HEARTBEAT_ROUNDS} rounds to both processes: ${sum} s credited over a span of ${span} s`,
    );
    expect(span).toBeGreaterThan(HEARTBEAT_ROUNDS * 0.7);
    expect(sum).toBeLessThanOrEqual(Math.floor(span));
    expect(sum).toBeGreaterThanOrEqual(Math.floor(span) - TABS - 1);
  } finally {
    await client.end();
  }
}, 60_000);

const CROWD_VIEWERS = 10;
const CROWD_ANONYMOUS = 5;
const CROWD_ROUNDS = 4;

it(`${CROWD_VIEWERS} viewers in two tabs and ${CROWD_ANONYMOUS} anonymous ones on one webinar, every heartbeat sent to both processes at once: batches of both lock the same rows without a deadlock, and the totals add up`, async () => {
  const { ticketCode } = await newLiveWebinar(servers[0]!);
  const start = { mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP" };
  const tabs: { cookie: string; playbackId: string; kind: "REGISTERED" | "ANONYMOUS" }[] = [];
  for (let viewer = 0; viewer < CROWD_VIEWERS; viewer += 1) {
    const { cookie } = await viewerCookie(`crowd-${viewer}`, ticketCode);
    for (const server of servers) {
      const started = await watchCall(server.url, "/w/api/playback/start", cookie, start);
      expect(started.status).toBe(200);
      tabs.push({ cookie, playbackId: started.body.playbackId as string, kind: "REGISTERED" });
    }
  }
  for (let anonymous = 0; anonymous < CROWD_ANONYMOUS; anonymous += 1) {
    const response = await fetch(`${servers[anonymous % 2]!.url}/w/api/playback/start`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...start, ticketCode }),
    });
    expect(response.status).toBe(200);
    const { playbackId } = (await response.json()) as { playbackId: string };
    tabs.push({ cookie: response.headers.get("set-cookie")!.split(";")[0]!, playbackId, kind: "ANONYMOUS" });
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadlocks = async () =>
      Number(
        (await client.query("select deadlocks from pg_stat_database where datname = current_database()")).rows[0]
          .deadlocks,
      );
    const deadlocksBefore = await deadlocks();
    const credited = new Map(tabs.map((tab) => [tab.playbackId, 0]));
    for (let round = 0; round < CROWD_ROUNDS; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // Each process gets every tab's heartbeat, the second in the reverse order: their batches overlap row for row.
      const answers = await Promise.all(
        servers.flatMap((server, index) =>
          (index === 0 ? tabs : [...tabs].reverse()).map(({ cookie, playbackId }) =>
            watchCall(server.url, "/w/api/playback/heartbeat", cookie, { playbackId, playing: true }),
          ),
        ),
      );
      expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)).toEqual([]);
      for (const { body } of answers)
        credited.set(body.playbackId, credited.get(body.playbackId)! + body.creditedSeconds);
    }
    const sessions = await client.query<{ id: string; watch_seconds: number }>(
      "select id, watch_seconds from playback_sessions where id = any($1)",
      [tabs.map((tab) => tab.playbackId)],
    );
    for (const row of sessions.rows) expect(row.watch_seconds).toBe(credited.get(row.id));
    const totals = await client.query<{ kind: string; watch_seconds: string }>(
      `select t.kind, t.watch_seconds from watch_totals t join webinars w on w.id = t.webinar_id
       where w.ticket_code = $1 and t.scope = 'LIVE' order by t.kind`,
      [ticketCode],
    );
    const sumOf = (kind: string) =>
      tabs.filter((tab) => tab.kind === kind).reduce((sum, tab) => sum + credited.get(tab.playbackId)!, 0);
    expect(totals.rows.map((row) => [row.kind, Number(row.watch_seconds)])).toEqual([
      ["ANONYMOUS", sumOf("ANONYMOUS")],
      ["REGISTERED", sumOf("REGISTERED")],
    ]);
    expect(sumOf("REGISTERED")).toBeGreaterThan(0);
    expect(sumOf("ANONYMOUS")).toBeGreaterThan(0);
    expect((await deadlocks()) - deadlocksBefore).toBe(0);
  } finally {
    await client.end();
  }
}, 60_000);
