/**
 * The request log's retention with two real server processes on one PostgreSQL database, each pruning every
 * second with WEBINAR_REQUEST_LOG_MAX_ROWS=100: while the test holds the retention's advisory lock, neither
 * process deletes a row (both find the lock taken); once it is released, one run at a time brings each class of
 * the merchant down to 100, by whichever process holds the lock.
 */
import { signRequest } from "@org/webinar-signing";
import { operations } from "@org/webinar-types";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RETENTION_LOCK_KEY } from "../src/console/request-log/retention";
import {
  adminMerchant,
  startTwoProcessesOnPostgres,
  type ServerProcess,
  type TwoProcesses,
} from "./support/server-process";

const PATH = operations.upsertViewer.path;
let processes: TwoProcesses | undefined;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  processes = await startTwoProcessesOnPostgres("request_log_retention", {
    WEBINAR_LOG_LEVEL: "debug",
    WEBINAR_REQUEST_LOG_MAX_ROWS: "100",
    WEBINAR_REQUEST_LOG_PRUNE_SECONDS: "1",
    WEBINAR_REQUEST_LOG_UNVERIFIED_PER_MINUTE: "1000",
  });
  servers = [...processes.servers];
}, 120_000);

afterAll(() => processes?.stop());

async function send(url: string, credentials: { apiKey: string; secret: string }, index: number): Promise<number> {
  const body = JSON.stringify({ externalUserId: `two-${index}` });
  const { headers } = await signRequest({ ...credentials, path: PATH, body });
  const answer = await fetch(`${url}${PATH}`, { method: "POST", headers: { ...headers }, body });
  await answer.arrayBuffer();
  return answer.status;
}

it("one process prunes at a time: none while the lock is held elsewhere, then both classes down to the cap", async () => {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await adminMerchant(first);
  const client = new pg.Client({ connectionString: processes!.databaseUrl });
  await client.connect();
  const counts = async () => {
    const result = await client.query<{ verified: boolean; n: string }>(
      "select verified, count(*) as n from open_api_request_log where merchant_id = $1 group by verified",
      [merchant.merchantId],
    );
    const of = (verified: boolean) => Number(result.rows.find((row) => row.verified === verified)?.n ?? 0);
    return { verified: of(true), unverified: of(false) };
  };
  try {
    await client.query("select pg_advisory_lock($1)", [RETENTION_LOCK_KEY]);
    const wrong = { apiKey: merchant.apiKey, secret: "not-the-secret" };
    for (let start = 0; start < 300; start += 10) {
      const group = Array.from({ length: 10 }, (_, offset) => {
        const index = start + offset;
        const server = index % 2 === 0 ? first : second;
        return send(server.url, index < 150 ? merchant : wrong, index);
      });
      const statuses = await Promise.all(group);
      expect(statuses).toEqual(group.map((_, offset) => (start + offset < 150 ? 200 : 401)));
    }
    const deadline = Date.now() + 30_000;
    while ((await counts()).unverified < 150 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    // Three seconds of runs in both processes, every one finding the lock taken.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await counts()).toEqual({ verified: 150, unverified: 150 });
    for (const server of [first, second])
      expect(server.logs().some((line) => String(line.msg).includes("another process is pruning"))).toBe(true);
    await client.query("select pg_advisory_unlock($1)", [RETENTION_LOCK_KEY]);
    const evicted = Date.now() + 60_000;
    while (JSON.stringify(await counts()) !== JSON.stringify({ verified: 100, unverified: 100 })) {
      if (Date.now() > evicted) throw new Error(`not pruned within 60 s: ${JSON.stringify(await counts())}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // 50 verified and 50 unverified rows went, by whichever process held the lock (its log line may lag).
    const deletedInLogs = () =>
      [first, second]
        .flatMap((server) => server.logs().filter((line) => line.msg === "request log pruned"))
        .reduce((sum, line) => sum + Number(line.deleted), 0);
    const logged = Date.now() + 10_000;
    while (deletedInLogs() < 100 && Date.now() < logged) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(deletedInLogs()).toBe(100);
  } finally {
    await client.end();
  }
}, 180_000);
