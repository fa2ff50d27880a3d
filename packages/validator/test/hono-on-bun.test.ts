/**
 * The Hono middleware on Bun through `app.request()`: test/support/hono-on-bun.ts runs in a Bun process and prints
 * what each request got; the full request matrix over HTTP on Bun.serve is in request-matrix.test.ts.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

interface Answer {
  status: number;
  requestId: string | null;
  body: unknown;
}

const bun = join(dirname(createRequire(import.meta.url).resolve("bun/package.json")), "bin", "bun.exe");
const script = fileURLToPath(new URL("./support/hono-on-bun.ts", import.meta.url));

describe("webinarHono on Bun with app.request()", () => {
  let output: { bun?: string; answers: Record<string, Answer> };
  let answers: Record<string, Answer>;
  beforeAll(() => {
    output = JSON.parse(execFileSync(bun, [script], { encoding: "utf8" })) as typeof output;
    answers = output.answers;
  }, 60_000);

  it("runs on Bun", () => {
    expect(output.bun).toMatch(/^\d+\.\d+/);
  });

  it("a signed upsert is verified and handled; the same request again -> 409 OPEN_API_REPLAYED", () => {
    expect(answers["signedUpsert"]).toMatchObject({
      status: 200,
      body: { data: { operationId: "upsertViewer", body: { externalUserId: "crm-bun" } } },
    });
    expect(answers["signedUpsert"]!.requestId).toBe((answers["signedUpsert"]!.body as { requestId: string }).requestId);
    expect(answers["replayedUpsert"]).toMatchObject({ status: 409, body: { error: { code: "OPEN_API_REPLAYED" } } });
  });

  it.each([
    ["wrongSecret", 401, "OPEN_API_UNAUTHORIZED"],
    ["trailingSlash", 401, "OPEN_API_UNAUTHORIZED"],
    ["getOnOperation", 405, "REQUEST_INVALID"],
  ])("%s -> %i %s from the middleware", (name, status, code) => {
    expect(answers[name]).toMatchObject({ status, body: { error: { code } } });
  });

  it("the app's own routes answer as before", () => {
    expect(answers["ownRoot"]).toEqual({ status: 200, requestId: null, body: "Hello Hono!" });
    expect(answers["ownJson"]).toEqual({ status: 200, requestId: null, body: { received: { a: 1 } } });
  });
});
