/**
 * The kit against a second server that is not the reference server: the Express guide's sample app
 * (docs/guides/samples/express.ts with its operations.ts stand-in service), started as its guide says, with
 * `@org/webinar-validator/express` doing the verification. The checks run are those of what the sample
 * implements: signing, non-canonical paths, methods, every body rule, the upsert and ticket rules its
 * in-memory stand-in keeps. (It has no watch data and no phone uniqueness, so those checks are not run here.)
 */
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformanceCli, startInBackground, type BackgroundProcess } from "./support/processes";

const DOCS = fileURLToPath(new URL("../../../docs/", import.meta.url));
const apiKey = `wk_sample_${randomBytes(6).toString("hex")}`;
const secret = randomBytes(18).toString("base64url");

/** The groups and checks whose rules the sample implements. */
const IMPLEMENTED = [
  "signing",
  "paths.trailing-slash",
  "paths.query-string",
  "paths.letter-case",
  "paths.percent-encoding",
  "paths.dot-segment",
  "paths.double-slash",
  "methods",
  "body",
  "upsert.create",
  "upsert.return-existing",
  "upsert.trimmed",
  "upsert.case-sensitive",
  "upsert.display-name",
  "upsert.phone.bind",
  "upsert.phone.idempotent",
  "upsert.phone.kept",
  "upsert.phone.null",
  "tickets",
  "watch.overview.webinar-not-found",
  "watch.query.webinar-not-found",
  "answers",
];

let sample: BackgroundProcess;
beforeAll(async () => {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  sample = await startInBackground(process.execPath, ["--import", "tsx", "guides/samples/express.ts"], {
    cwd: DOCS,
    env: { ...inherited, PORT: "0", WEBINAR_API_KEY: apiKey, WEBINAR_API_SECRET: secret },
    listening: /listening on (http:\/\/\S+)/,
  });
});
afterAll(() => sample?.stop());

describe("webinar-conformance against the Express guide's sample app", () => {
  it("passes every check of what the sample implements", async () => {
    const run = await runConformanceCli([
      ...["--base-url", sample.url, "--api-key", apiKey, "--api-secret", secret, "--ticket-code", "WBN8K2QX"],
      ...IMPLEMENTED.flatMap((prefix) => ["--only", prefix]),
    ]);
    const summary = run.stdout.trim().split("\n").at(-1)!;
    console.log(`conformance against the Express sample: ${summary}`);
    expect(run.stdout.split("\n").filter((line) => line.startsWith("FAIL"))).toEqual([]);
    expect(run.code).toBe(0);
    expect(Number(/^(\d+) checks/.exec(summary)?.[1])).toBeGreaterThanOrEqual(300);
  });
});
