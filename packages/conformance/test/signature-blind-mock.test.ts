/**
 * The kit catches a server that never checks signatures: Prism's mock of the spec (`prism mock spec/openapi.yaml`)
 * answers every operation with the spec's own examples, valid against its schemas, but verifies no signature,
 * keeps no nonce and knows no clock. The CLI exits non-zero and names each signing check that failed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../src/run-conformance";
import { jsonReportOf, runConformanceCli, startInBackground, type BackgroundProcess } from "./support/processes";

const PRISM = fileURLToPath(new URL("../node_modules/.bin/prism", import.meta.url));
const SPEC = fileURLToPath(new URL("../../../spec/openapi.yaml", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "webinar-conformance-prism-"));

let mock: BackgroundProcess;
beforeAll(async () => {
  mock = await startInBackground(PRISM, ["mock", "--host", "127.0.0.1", "--port", "0", SPEC], {
    env: { PATH: process.env.PATH, NO_COLOR: "1", FORCE_COLOR: "0" },
    listening: /Prism is listening on (http:\/\/\S+)/,
  });
});
afterAll(async () => {
  await mock?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Checks a server that verifies nothing cannot pass: each needs a signature, a nonce or the clock verified. */
const SIGNATURE_CHECKS = [
  "signing.secret.wrong",
  "signing.key.unknown",
  "signing.body.altered",
  "signing.body.reserialized",
  "signing.canonical.trailing-line-feed",
  "signing.canonical.method-case",
  "signing.canonical.full-url",
  "signing.canonical.other-path",
  "signing.signature.uppercase-hex",
  "signing.signature.base64",
  "signing.signature.truncated",
  "signing.timestamp.past-outside",
  "signing.timestamp.future-outside",
  "signing.timestamp.milliseconds",
  "signing.replay.same-request",
  "signing.replay.other-operation",
];

describe("webinar-conformance against a mock of the spec that never checks signatures", () => {
  it("exits non-zero and names every signature check that failed", async () => {
    const json = join(work, "report.json");
    const run = await runConformanceCli([
      ...["--base-url", mock.url, "--api-key", "wk_conformance_mock", "--api-secret", "any-secret"],
      ...["--ticket-code", "wbn-7Hq2kP9x", "--only", "signing", "--json", json],
    ]);
    const report = jsonReportOf<{ failed: number; checks: Array<{ id: string; ok: boolean }> }>(json, run);
    const failed = report.checks.filter((check) => !check.ok).map((check) => check.id);
    console.log(`conformance against the Prism mock: ${run.stdout.trim().split("\n").at(-1)}`);
    expect(run.code).toBe(1);
    expect(failed).toEqual(expect.arrayContaining(SIGNATURE_CHECKS));
    for (const id of SIGNATURE_CHECKS)
      expect(run.stdout).toMatch(new RegExp(`^FAIL ${id.replaceAll(".", "\\.")}  `, "m"));
    expect(run.stdout).toMatch(new RegExp(`, ${report.failed} failed, `));
    // The mock's answers themselves are the spec's examples: a correctly signed request still passes.
    expect(report.checks.find((check) => check.id === "signing.correct")?.ok).toBe(true);
  });

  it("stops at the first failing check when the caller aborts its signal there", async () => {
    const stop = new AbortController();
    const report = await runConformance({
      baseUrl: mock.url,
      apiKey: "wk_conformance_mock",
      apiSecret: "any-secret",
      ticketCode: "wbn-7Hq2kP9x",
      only: ["signing"],
      signal: stop.signal,
      onCheck: (result) => {
        if ("ok" in result && !result.ok) stop.abort();
      },
    });
    const failed = report.checks.filter((check) => !check.ok).map((check) => check.id);
    expect(failed).toHaveLength(1);
    // Nothing ran after it, though most signing checks fail against this mock.
    expect(report.checks.at(-1)?.id).toBe(failed[0]);
    expect(report.checks.length).toBeLessThan(SIGNATURE_CHECKS.length);
  });
});
