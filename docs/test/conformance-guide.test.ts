/**
 * Runs the "Test your server" guide's sample (`guides/samples/conformance.ts`) as a reader would, `tsx <sample>`
 * against the built `@org/webinar-conformance`, with the environment it names, against the reference server started
 * as operators start it: every check passes, the summary is printed, the JUnit report written, the exit code 0.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceServer, startConformanceServer } from "@org/webinar-test-support/conformance-world";
import { packageBin } from "@org/webinar-test-support/package-bin";

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const work = mkdtempSync(join(tmpdir(), "webinar-conformance-guide-"));

const SERVER_MAIN = packageBin(import.meta.url, "@org/webinar-server", "webinar-server");

let server: ConformanceServer;
beforeAll(async () => {
  server = await startConformanceServer([process.execPath, SERVER_MAIN], "pglite");
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("the Test your server guide's sample", () => {
  it("runs every check against the reference server, writes the JUnit report and exits 0", () => {
    const run = spawnSync(process.execPath, ["--import", tsx, join(docsDir, "guides", "samples", "conformance.ts")], {
      cwd: work,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH,
        WEBINAR_BASE_URL: server.url,
        WEBINAR_API_KEY: server.main.apiKey,
        WEBINAR_API_SECRET: server.main.secret,
        WEBINAR_TICKET_CODE: server.ticketCode,
      },
      timeout: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^\d{3} checks passed, 0 failed, \d+ skipped\n$/);
    expect(run.status).toBe(0);
    expect(readFileSync(join(work, "conformance-junit.xml"), "utf8")).toMatch(
      /<testsuites name="webinar-conformance" tests="\d+" failures="0"/,
    );
  });
});
