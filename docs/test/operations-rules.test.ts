/**
 * The alerting rules of "Operating the reference server" (operations.md), loaded by Prometheus' own promtool
 * (Debian's `prometheus` package, which scripts/test-prerequisites.sh installs): `check rules` accepts them, and
 * `test rules` shows each alert firing on the series it is about, and not on healthy ones.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { rootDir } from "../scripts/site.ts";

const PROMTOOL = process.env.PROMTOOL_PATH ?? "/usr/bin/promtool";
const run = promisify(execFile);
const guide = readFileSync(join(rootDir, "docs", "operations.md"), "utf8");

/** The guide's one YAML block that holds rule groups. */
function rulesBlock(): string {
  const blocks = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const rules = blocks.filter((block) => block.startsWith("groups:"));
  expect(rules).toHaveLength(1);
  return rules[0]!;
}

const JOB = 'job="webinar-server",instance="10.0.0.11:9464"';
const INSTANCE = { job: "webinar-server", instance: "10.0.0.11:9464" };

/** A promtool expectation: at `evalTime`, `alertname` fires once, with these labels and this summary. */
const fires = (evalTime: string, alertname: string, labels: Record<string, string>, summary: string) => ({
  eval_time: evalTime,
  alertname,
  exp_alerts: [{ exp_labels: labels, exp_annotations: { summary } }],
});

/** promtool's unit tests of the rules: series that should (and should not) fire each alert. */
const RULE_TESTS = {
  rule_files: ["rules.yml"],
  evaluation_interval: "1m",
  tests: [
    {
      interval: "1m",
      input_series: [
        {
          series: `webinar_http_requests_total{${JOB},surface="open",operation="upsertViewer",status="200",code=""}`,
          values: "0+90x30",
        },
        {
          series: `webinar_http_requests_total{${JOB},surface="open",operation="upsertViewer",status="503",code="AUTH_DEPENDENCY_UNAVAILABLE"}`,
          values: "0+10x30",
        },
        {
          series: `webinar_http_requests_total{${JOB},surface="watch",operation="sendHeartbeat",status="200",code=""}`,
          values: "0+100x30",
        },
        {
          series: `webinar_http_requests_total{${JOB},surface="watch",operation="sendHeartbeat",status="409",code="PLAYBACK_NOT_AVAILABLE"}`,
          values: "0+50x30",
        },
        {
          series: `webinar_http_request_duration_seconds_bucket{${JOB},surface="open",operation="queryViewerWatch",le="1"}`,
          values: "0+1x30",
        },
        {
          series: `webinar_http_request_duration_seconds_bucket{${JOB},surface="open",operation="queryViewerWatch",le="2.5"}`,
          values: "0+100x30",
        },
        {
          series: `webinar_http_request_duration_seconds_bucket{${JOB},surface="open",operation="queryViewerWatch",le="+Inf"}`,
          values: "0+100x30",
        },
        {
          series: `webinar_http_request_duration_seconds_bucket{${JOB},surface="open",operation="upsertViewer",le="0.01"}`,
          values: "0+100x30",
        },
        {
          series: `webinar_http_request_duration_seconds_bucket{${JOB},surface="open",operation="upsertViewer",le="+Inf"}`,
          values: "0+100x30",
        },
        { series: `webinar_change_feed_listening{${JOB}}`, values: "1 1 0x28" },
        { series: `webinar_database_up{${JOB}}`, values: "1 1 1 0x27" },
        {
          series: `webinar_batch_commit_duration_seconds_count{${JOB},batch="heartbeat",outcome="failed"}`,
          values: "0 0 0 0 1x26",
        },
        { series: `up{${JOB}}`, values: "1 1 1 1 1 0x25" },
      ],
      alert_rule_test: [
        { eval_time: "1m", alertname: "WebinarChangeFeedNotListening", exp_alerts: [] },
        // 10% of the Open API's answers are 503; the watch surface's 409s are refusals, not failures.
        fires(
          "15m",
          "WebinarErrorRatioHigh",
          { severity: "page", job: "webinar-server", surface: "open" },
          "More than 5% of open requests fail with 5xx",
        ),
        fires(
          "20m",
          "WebinarOperationSlow",
          { severity: "ticket", job: "webinar-server", surface: "open", operation: "queryViewerWatch" },
          "p99 of queryViewerWatch is above 1 s",
        ),
        fires(
          "6m",
          "WebinarChangeFeedNotListening",
          { severity: "ticket", ...INSTANCE },
          "10.0.0.11:9464 does not hear cache invalidations; its reads all go to the database",
        ),
        fires(
          "6m",
          "WebinarDatabaseUnreachable",
          { severity: "page", ...INSTANCE },
          "10.0.0.11:9464 cannot reach its database",
        ),
        fires(
          "6m",
          "WebinarBatchWritesFailing",
          { severity: "ticket", ...INSTANCE, batch: "heartbeat" },
          "heartbeat batches of 10.0.0.11:9464 fail: their callers got 503",
        ),
        fires(
          "10m",
          "WebinarMetricsDown",
          { severity: "page", ...INSTANCE },
          "10.0.0.11:9464 is not scraped: the process is down or its metrics listener unreachable",
        ),
      ],
    },
  ],
};

describe("docs: the alerting rules of operations.md", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "webinar-rules-"));
    await writeFile(join(dir, "rules.yml"), rulesBlock());
    await writeFile(join(dir, "rules.test.yml"), JSON.stringify(RULE_TESTS, null, 2));
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("name the alerts the guide promises: error ratio, p99 per operation, change feed, database", () => {
    const alerts = (parse(rulesBlock()) as { groups: { rules: { alert: string }[] }[] }).groups.flatMap((group) =>
      group.rules.map((rule) => rule.alert),
    );
    expect(alerts).toEqual(
      expect.arrayContaining([
        "WebinarErrorRatioHigh",
        "WebinarOperationSlow",
        "WebinarChangeFeedNotListening",
        "WebinarDatabaseUnreachable",
      ]),
    );
  });

  it("promtool check rules accepts them", async () => {
    const { stdout } = await run(PROMTOOL, ["check", "rules", join(dir, "rules.yml")]);
    expect(stdout).toMatch(/SUCCESS: 6 rules found/);
  });

  it("promtool test rules: each alert fires on its series, none on healthy ones", async () => {
    const result = await run(PROMTOOL, ["test", "rules", join(dir, "rules.test.yml")]).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout}${error.stderr}`, failed: true }),
    );
    expect(result).toEqual({ stdout: expect.stringContaining("SUCCESS"), stderr: "" });
  });
});
