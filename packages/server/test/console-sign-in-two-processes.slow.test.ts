/**
 * One sign-in throttle for every server process (console-openapi.yaml, "Sign-in throttling"): two real processes
 * on one PostgreSQL database, each trusting 127.0.0.1 as its proxy, take a burst of 40 wrong passwords for one email
 * from one client address, 20 each, at the same moment. The attempts are counted in the database before any password
 * is checked, so 5 are checked in all (the two processes' password-hash metrics add up to 5) and 35 answer 429 with
 * Retry-After; the right password from another address still signs in.
 */
import { adminData } from "@org/webinar-test-support/admin-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { STRONG_PASSWORD, inviteToken } from "./support/console-client";
import {
  adminMerchant,
  startTwoProcessesOnPostgres,
  type ServerProcess,
  type TwoProcesses,
} from "./support/server-process";

let processes: TwoProcesses | undefined;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  processes = await startTwoProcessesOnPostgres("sign-in-processes", {
    WEBINAR_LOG_LEVEL: "info",
    WEBINAR_TRUSTED_PROXIES: "127.0.0.1",
    WEBINAR_METRICS_PORT: "0",
  });
  servers = [...processes.servers];
}, 120_000);

afterAll(() => processes?.stop());

/** The process's metrics URL, from its start log (log lines reach stdout within a second of being logged). */
async function metricsUrl(server: ServerProcess): Promise<string> {
  const logged = () => server.logs().find((line) => typeof line.metricsUrl === "string")?.metricsUrl;
  await expect.poll(logged, { timeout: 10_000, message: "the process logged no metrics URL" }).toBeTypeOf("string");
  return logged() as string;
}

/** Password hashes the process has computed so far. */
async function hashesComputed(server: ServerProcess): Promise<number> {
  const text = await (await fetch(await metricsUrl(server))).text();
  const line = text.split("\n").find((candidate) => candidate.startsWith("webinar_console_password_hashes_total "));
  return Number(line?.split(" ")[1] ?? 0);
}

function signIn(server: ServerProcess, password: string, address: string) {
  return fetch(`${server.url}/console/api/session`, {
    method: "POST",
    headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ email: "shared@example.com", password }),
  });
}

it("40 wrong passwords for one email, 20 to each process at once: 5 checked in all, 35 refused with Retry-After", async () => {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await adminMerchant(first);
  const invite = await adminData(
    first.admin.POST("/admin/v1/merchants/{merchantId}/console-users", {
      params: { path: { merchantId: merchant.merchantId } },
      body: { email: "shared@example.com" },
    }),
  );
  const accepted = await fetch(`${first.url}/console/api/session/invite`, {
    method: "POST",
    headers: { origin: first.url, "content-type": "application/json" },
    body: JSON.stringify({ token: inviteToken(invite.inviteUrl), password: STRONG_PASSWORD }),
  });
  expect(accepted.status).toBe(200);
  const before = (await hashesComputed(first)) + (await hashesComputed(second));
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, index) => signIn(index % 2 === 0 ? first : second, `wrong ${index}`, "203.0.113.7")),
  );
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 401)).toHaveLength(5);
  expect(statuses.filter((status) => status === 429)).toHaveLength(35);
  for (const answer of answers.filter((refused) => refused.status === 429))
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
  const after = (await hashesComputed(first)) + (await hashesComputed(second));
  expect(after - before).toBe(5);
  expect((await signIn(second, STRONG_PASSWORD, "203.0.113.7")).status).toBe(429);
  expect((await signIn(second, STRONG_PASSWORD, "203.0.113.8")).status).toBe(200);
}, 120_000);
