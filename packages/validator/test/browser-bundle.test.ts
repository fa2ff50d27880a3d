/**
 * The built main entry (and the other Web-only entries) bundle for the browser with esbuild, which fails on any
 * import of a Node built-in; the main entry's bundle then verifies a signed request in a JavaScript context that has
 * Web APIs only (no `process`, no `require`, no `Buffer`), as a Worker or a browser would run it.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { isBuiltin } from "node:module";
import { fileURLToPath } from "node:url";
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { fixedClock, lookupKey, signedRequest } from "./support/fixture";
import { toWebRequest } from "./support/web-request";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const built = (entry: string) => fileURLToPath(new URL(`../dist/${entry}.js`, import.meta.url));
const webOnlyEntries = ["index", "hono", "nonce-store/postgres", "nonce-store/redis"];

beforeAll(() => {
  // `pnpm test` builds first; a bare `vitest run` on a fresh clone builds here.
  if (!webOnlyEntries.every((entry) => existsSync(built(entry))))
    execFileSync("pnpm", ["run", "build"], { cwd: packageDir, stdio: "ignore" });
}, 120_000);

describe("the Web-only entries bundle for platform: browser", () => {
  it.each(webOnlyEntries)("dist/%s.js bundles without a Node built-in", async (entry) => {
    const result = await build({
      entryPoints: [built(entry)],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    const imports = Object.values(result.metafile.inputs).flatMap((input) =>
      input.imports.map((imported) => imported.path),
    );
    expect(imports.filter((path) => isBuiltin(path))).toEqual([]);
  });

  it("the main entry's bundle verifies a signed request with Web APIs only", async () => {
    const bundle = await build({
      entryPoints: [built("index")],
      bundle: true,
      platform: "browser",
      format: "iife",
      globalName: "webinarValidator",
      write: false,
      logLevel: "silent",
    });
    const context = createContext({
      crypto,
      TextEncoder,
      TextDecoder,
      Request,
      Response,
      Headers,
      URL,
      ReadableStream,
      Promise,
    });
    runInContext(bundle.outputFiles[0]!.text, context);
    expect(runInContext("typeof process + typeof require + typeof Buffer", context)).toBe(
      "undefinedundefinedundefined",
    );

    const { createRequestVerifier, createMemoryNonceStore } = context[
      "webinarValidator"
    ] as typeof import("../src/index");
    const verifier = createRequestVerifier({
      lookupKey,
      nonceStore: createMemoryNonceStore({ now: fixedClock }),
      now: fixedClock,
    });
    const wire = signedRequest({ path: "/api/v1/open/viewers/upsert", body: '{"externalUserId":" crm-1 "}' });
    expect(await verifier.verify(toWebRequest(wire))).toMatchObject({
      ok: true,
      operationId: "upsertViewer",
      body: { externalUserId: "crm-1" },
    });
    expect(await verifier.verify(toWebRequest(wire))).toMatchObject({ ok: false, status: 409 });
  });
});
