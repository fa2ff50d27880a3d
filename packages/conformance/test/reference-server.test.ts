/**
 * The kit is independent of the server it checks: the built `webinar-conformance` CLI, a second process, checks
 * the reference server (itself a process, started as operators start it) over HTTP only, on the embedded database
 * and on PostgreSQL. With only a key, its secret and a ticketCode every check passes; given a second merchant, the
 * watch page's ticket exchange and the server's admin API as the setup hooks too, nothing is left skipped, the
 * model-based sequences included.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonReportOf, runConformanceCli } from "./support/processes";
import { startReferenceServer, type ReferenceServer } from "./support/reference-server";

/** Short, so the expiry check waits seconds, not the default minute. */
const TICKET_LIFETIME_SECONDS = 3;

const work = mkdtempSync(join(tmpdir(), "webinar-conformance-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface JsonReport {
  passed: number;
  failed: number;
  checks: Array<{ id: string; title: string; ok: boolean; detail: string }>;
  skipped: Array<{ id: string; title: string; skipped: string }>;
}

describe.each(["pglite", "postgres"] as const)("webinar-conformance against the reference server on %s", (database) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer(database, { ticketLifetimeSeconds: TICKET_LIFETIME_SECONDS });
  });
  afterAll(() => server?.stop());

  it("passes with only a key, its secret and a ticketCode: at least 60 checks, exit 0, JSON and JUnit reports", async () => {
    const json = join(work, `${database}-minimal.json`);
    const junit = join(work, `${database}-minimal.xml`);
    const run = await runConformanceCli([
      ...["--base-url", server.url, "--api-key", server.main.apiKey, "--api-secret", server.main.secret],
      ...["--ticket-code", server.ticketCode, "--json", json, "--junit", junit],
    ]);
    const report = jsonReportOf<JsonReport>(json, run);
    const summary = run.stdout.trim().split("\n").at(-1)!;
    console.log(
      `conformance on ${database}, key + secret + ticketCode only: ${summary} (process ${run.durationMs} ms)`,
    );
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.passed).toBeGreaterThanOrEqual(60);
    expect(summary).toMatch(
      new RegExp(`^${report.passed} checks: ${report.passed} passed, 0 failed, \\d+ skipped in [\\d.]+ s$`),
    );
    // One line per check with its id and title, and nothing of the secret.
    for (const check of report.checks) expect(run.stdout).toContain(`ok   ${check.id}  ${check.title}`);
    expect(run.stdout).not.toContain(server.main.secret);
    // Without the options they need, only the isolation, ticket-exchange and setup-hook checks stand aside.
    expect(
      report.skipped
        .map((check) => check.id)
        .filter(
          (id) => !/^(isolation|tickets\.exchange|state|live|figures|model)\.|^concurrency\.ticket-exchange$/.test(id),
        ),
    ).toEqual([]);
    const xml = readFileSync(junit, "utf8");
    expect(xml.match(/<testcase /g)).toHaveLength(report.passed + report.skipped.length);
    expect(xml).toContain(`failures="0"`);
  });

  it("with a second merchant, the ticket exchange and the admin API as setup hooks, runs every check and passes them all", async () => {
    const json = join(work, `${database}-full.json`);
    const run = await runConformanceCli(
      [
        ...["--json", json, "--session-url", `${server.url}/w/api/session`],
        ...["--admin-url", server.url, "--ticket-lifetime-seconds", String(TICKET_LIFETIME_SECONDS)],
      ],
      {
        WEBINAR_ADMIN_TOKEN: server.adminToken,
        WEBINAR_BASE_URL: server.url,
        WEBINAR_API_KEY: server.main.apiKey,
        WEBINAR_API_SECRET: server.main.secret,
        WEBINAR_TICKET_CODE: server.ticketCode,
        WEBINAR_SECOND_API_KEY: server.second.apiKey,
        WEBINAR_SECOND_API_SECRET: server.second.secret,
      },
    );
    const report = jsonReportOf<JsonReport>(json, run);
    console.log(`conformance on ${database}, every option: ${run.stdout.trim().split("\n").at(-1)}`);
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(report.skipped).toEqual([]);
    expect(run.code).toBe(0);
    // The seeded watch data is paged for real: every mode and sort compared records.
    const pagination = report.checks.filter((check) => check.id.startsWith("pagination."));
    expect(pagination).toHaveLength(9);
    for (const check of pagination) expect(check.detail).toMatch(/^7 records; the first 7 compared$/);
    // Model-based testing ran its sequences against this server, within its time limit or all of them.
    expect(report.checks.find((check) => check.id === "model.sequences")?.detail).toMatch(
      /^seed \d+, [1-9]\d* sequences/,
    );
    // The known sessions are paged for real too: more than 250 records in ALL.
    expect(report.checks.find((check) => check.id === "figures.detail.all.watch-seconds-desc")?.detail).toMatch(
      /^2[5-9]\d records$/,
    );
  });
});
