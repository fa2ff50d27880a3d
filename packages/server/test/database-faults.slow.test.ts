/**
 * Database faults under the real server process, on a PostgreSQL cluster this test owns (initdb in a temporary
 * directory, its own port, run as the `postgres` user):
 * - a crash (`pg_ctl stop -m immediate`) under steady load of signed upserts and tickets, then a start: in the
 *   meantime only the operations' 503 codes (no 500, no request that hangs), every write answered 200 is
 *   readable afterwards, and the server serves again within 5 s of the database being back (figure printed);
 * - a database that stops answering (every one of its processes SIGSTOPped): each request becomes its 503
 *   within the statement and pool-acquire limits (2 s by default), never a hang; after SIGCONT it serves again.
 */
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type OperationId } from "@org/webinar-types";
import { signRequest } from "@org/webinar-signing";
import { ADMIN_TOKEN } from "./support/harness";
import { createPrivatePostgres, type PrivatePostgres } from "./support/private-postgres";
import { adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

/** A request that takes longer than this counts as hanging (the default limits answer within about 2 s). */
const HANG_MS = 5000;
/** The default statement and pool-acquire limits (2 s), with room for a machine busy with other tests. */
const UNAVAILABLE_WITHIN_MS = 3500;
const LOAD_WORKERS = 8;

let postgres: PrivatePostgres;
let server: ServerProcess;
let merchant: Awaited<ReturnType<typeof adminMerchant>>;

beforeAll(async () => {
  postgres = await createPrivatePostgres();
  server = await startServerProcess({ DATABASE_URL: postgres.url, WEBINAR_LOG_LEVEL: "warn" });
  merchant = await adminMerchant(server);
}, 120_000);

afterAll(async () => {
  // A server that died under the fault says why.
  if (server !== undefined && server.child.exitCode !== null)
    console.log(
      `the server exited (${server.child.exitCode}): ${server.stderr.join("")}${server.stdout.join("").slice(-2000)}`,
    );
  await server?.stop("SIGKILL");
  await postgres?.destroy();
});

interface Answer {
  operationId: OperationId;
  status: number;
  code: string | undefined;
  ms: number;
  data: any;
}

/** A signed call that gives up (status 0, "HANG") after HANG_MS, so a hang shows as a failed expectation. */
async function call(operationId: OperationId, body: unknown): Promise<Answer> {
  const text = JSON.stringify(body);
  const path = operations[operationId].path;
  const { headers } = await signRequest({ apiKey: merchant.apiKey, secret: merchant.secret, path, body: text });
  const started = performance.now();
  try {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { ...headers },
      body: text,
      signal: AbortSignal.timeout(HANG_MS),
    });
    const answer = (await response.json()) as { data?: unknown; error?: { code: string } };
    return {
      operationId,
      status: response.status,
      code: answer.error?.code,
      ms: performance.now() - started,
      data: answer.data,
    };
  } catch {
    return { operationId, status: 0, code: "HANG", ms: performance.now() - started, data: undefined };
  }
}

/** Every answer is 200 or a 503 with a code the operation documents for 503. */
function unexpectedAnswers(answers: Answer[]): Answer[] {
  return answers.filter(
    ({ operationId, status, code }) =>
      status !== 200 &&
      !(status === 503 && (operations[operationId].errors["503"] as readonly string[]).includes(code!)),
  );
}

describe("PostgreSQL crash (pg_ctl stop -m immediate) under steady load", () => {
  it("only 503s meanwhile, every acknowledged write readable after, serving again within 5 s", async () => {
    const answers: Answer[] = [];
    const acknowledgedViewers = new Map<string, number>();
    const acknowledgedTickets: string[] = [];
    let running = true;
    let firstSuccessAfterStart: number | undefined;
    let databaseBackAt: number | undefined;

    const worker = async (worker: number) => {
      for (let iteration = 0; running; iteration += 1) {
        const externalUserId = `load-${worker}-${iteration}`;
        const upsert = await call("upsertViewer", { externalUserId });
        answers.push(upsert);
        if (upsert.status === 200) {
          acknowledgedViewers.set(externalUserId, upsert.data.viewer.uid as number);
          if (databaseBackAt !== undefined) firstSuccessAfterStart ??= performance.now();
          const ticket = await call("issueLoginTicket", {
            uid: upsert.data.viewer.uid,
            ticketCode: merchant.ticketCode,
          });
          answers.push(ticket);
          if (ticket.status === 200) acknowledgedTickets.push(ticket.data.loginTicket as string);
        } else {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const load = Promise.all(Array.from({ length: LOAD_WORKERS }, (_, index) => worker(index)));

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const beforeCrash = acknowledgedViewers.size;
    await postgres.stop("immediate");
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const startIssuedAt = performance.now();
    await postgres.start();
    databaseBackAt = performance.now();
    while (firstSuccessAfterStart === undefined && performance.now() - databaseBackAt < 30_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    running = false;
    await load;

    const recoveryMs = Math.round((firstSuccessAfterStart ?? Number.NaN) - databaseBackAt);
    const byStatus = new Map<string, number>();
    for (const { status, code } of answers)
      byStatus.set(`${status} ${code ?? "-"}`, (byStatus.get(`${status} ${code ?? "-"}`) ?? 0) + 1);
    console.log(
      `database crash under load: ${answers.length} answers (${[...byStatus].map(([key, value]) => `${key}: ${value}`).join(", ")}); ` +
        `${beforeCrash} writes acknowledged before the crash, ${acknowledgedViewers.size} viewers and ${acknowledgedTickets.length} tickets in all; ` +
        `database restart took ${Math.round(databaseBackAt - startIssuedAt)} ms; first 200 ${recoveryMs} ms after the database was back; ` +
        `slowest answer ${Math.round(Math.max(...answers.map((answer) => answer.ms)))} ms`,
    );

    expect(unexpectedAnswers(answers)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    expect(recoveryMs).toBeLessThan(5000);

    // Every write that was answered 200 is in the database.
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const viewers = await client.query<{ external_user_id: string; uid: number }>(
        "select external_user_id, uid from viewers where merchant_id = $1",
        [merchant.merchantId],
      );
      const stored = new Map(viewers.rows.map((row) => [row.external_user_id, row.uid]));
      const lost = [...acknowledgedViewers].filter(([externalUserId, uid]) => stored.get(externalUserId) !== uid);
      expect(lost).toEqual([]);
      const hashes = acknowledgedTickets.map((ticket) => createHash("sha256").update(ticket).digest("hex"));
      const tickets = await client.query<{ count: string }>(
        "select count(*) from login_tickets where ticket_hash = any($1)",
        [hashes],
      );
      expect(Number(tickets.rows[0]!.count)).toBe(acknowledgedTickets.length);
    } finally {
      await client.end();
    }
  }, 120_000);
});

describe("PostgreSQL that stops answering (every process SIGSTOPped)", () => {
  it("each request is its operation's 503 within the default limits, never a hang; after SIGCONT it serves again", async () => {
    const viewer = await call("upsertViewer", { externalUserId: "before-freeze" });
    expect(viewer.status).toBe(200);
    const uid = viewer.data.viewer.uid as number;
    const ticket = await call("issueLoginTicket", { uid, ticketCode: merchant.ticketCode });
    expect(ticket.status).toBe(200);

    const frozen = await postgres.processIds();
    for (const pid of frozen) process.kill(pid, "SIGSTOP");
    let answers: Answer[];
    let others: { name: string; status: number; code: string | undefined; ms: number }[];
    try {
      answers = await Promise.all([
        call("upsertViewer", { externalUserId: "during-freeze" }),
        call("issueLoginTicket", { uid, ticketCode: merchant.ticketCode }),
        call("getWatchOverview", { ticketCode: merchant.ticketCode, playbackMode: "ALL" }),
        call("queryViewerWatch", {
          ticketCode: merchant.ticketCode,
          playbackMode: "REPLAY",
          sort: "WATCH_SECONDS_DESC",
          pageSize: 10,
        }),
      ]);
      const timed = async (name: string, request: () => Promise<Response>) => {
        const started = performance.now();
        try {
          const response = await request();
          const body = (await response.json()) as { error?: { code: string } };
          return { name, status: response.status, code: body.error?.code, ms: performance.now() - started };
        } catch {
          return { name, status: 0, code: "HANG", ms: performance.now() - started };
        }
      };
      const signal = () => AbortSignal.timeout(HANG_MS);
      others = await Promise.all([
        timed("exchange", () =>
          fetch(`${server.url}/w/api/session`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ ticketCode: merchant.ticketCode, loginTicket: ticket.data.loginTicket }),
            signal: signal(),
          }),
        ),
        timed("admin", () =>
          fetch(`${server.url}/admin/v1/merchants`, {
            method: "POST",
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
            body: JSON.stringify({ name: "frozen" }),
            signal: signal(),
          }),
        ),
        timed("health", () => fetch(`${server.url}/healthz`, { signal: signal() })),
      ]);
    } finally {
      for (const pid of frozen) process.kill(pid, "SIGCONT");
    }
    console.log(
      `database frozen: ${[...answers.map((answer) => ({ name: answer.operationId, ...answer })), ...others].map(({ name, status, code, ms }) => `${name} ${status} ${code ?? "-"} in ${Math.round(ms)} ms`).join(", ")}`,
    );
    expect(unexpectedAnswers(answers)).toEqual([]);
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503]);
    expect([...answers, ...others].filter((answer) => answer.ms >= UNAVAILABLE_WITHIN_MS)).toEqual([]);
    expect(others.map(({ name, status, code }) => [name, status, code])).toEqual([
      ["exchange", 503, "AUTH_DEPENDENCY_UNAVAILABLE"],
      ["admin", 503, "STORAGE_UNAVAILABLE"],
      ["health", 503, "STORAGE_UNAVAILABLE"],
    ]);

    // Back: the pool's connections resume and every operation answers again.
    let recovered: Answer | undefined;
    for (let attempt = 0; attempt < 50 && recovered?.status !== 200; attempt += 1) {
      recovered = await call("upsertViewer", { externalUserId: `after-freeze-${attempt}` });
      if (recovered.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered?.status).toBe(200);
    expect((await call("issueLoginTicket", { uid, ticketCode: merchant.ticketCode })).status).toBe(200);
    expect((await server.admin.POST("/admin/v1/merchants", { body: { name: "thawed" } })).response.status).toBe(201);
  }, 60_000);
});
