/**
 * The runtime matrix: the public packages packed with `pnpm pack` (the pack step of `pnpm release:check`) and
 * installed with npm into a fresh project, then used on Node 20, 22 and 24, Bun, Deno, Chromium (an esbuild
 * browser bundle of the main entries) and Workers (miniflare's workerd). On each, the client signs a call to the
 * reference server (started once, from the built server package) and the Hono adapter verifies signed requests;
 * tsc compiles a consumer file against the published declarations with moduleResolution node16 and bundler.
 * A runtime that cannot be installed fails its test with one line saying why.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackage, publicPackageDirs } from "../lib/pack.ts";
import { cleanEnv, freePort, output, run, runOk } from "./support/processes.ts";
import { serverEnv, startReferenceServer, type ReferenceServer } from "./support/reference-server.ts";
import { ensureRuntime } from "./support/runtimes.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const fixtures = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "matrix");
const work = mkdtempSync(join(tmpdir(), "webinar-runtime-matrix-"));
const consumer = join(work, "consumer");
const UPSERT = "/api/v1/open/viewers/upsert";
// esbuild and playwright-core are the workspace's own (the validator's and the docs' dev dependencies), and miniflare
// lives in the runtimes cache: none resolves from here, so each is loaded by path and typed by the part used.
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ outputFiles: Array<{ text: string }> }>;
}
interface Page {
  goto(url: string): Promise<unknown>;
  waitForFunction(predicate: () => boolean): Promise<unknown>;
  evaluate<A, R>(script: (argument: A) => Promise<R>, argument: A): Promise<R>;
}
interface Browser {
  newPage(): Promise<Page>;
  version(): string;
  close(): Promise<void>;
}
interface MiniflareInstance {
  dispatchFetch(
    url: string,
    init: { method: string; headers: Record<string, string>; body?: ArrayBuffer | undefined },
  ): Promise<Response>;
  dispose(): Promise<void>;
}
type MiniflareClass = new (options: Record<string, unknown>) => MiniflareInstance;
const esbuild = createRequire(join(repoRoot, "packages", "validator", "package.json"))("esbuild") as Esbuild;
const { chromium } = createRequire(join(repoRoot, "docs", "package.json"))("playwright-core") as {
  chromium: { launch(options: { executablePath: string; args: string[] }): Promise<Browser> };
};

let server: ReferenceServer | undefined;
let pageServer: Server | undefined;
let pageOrigin = "";
const pageFiles = new Map<string, { type: string; body: string }>();

beforeAll(async () => {
  const tarballs = join(work, "tarballs");
  mkdirSync(tarballs, { recursive: true });
  const packed = publicPackageDirs(repoRoot).map(({ name, dir }) => {
    const result = packPackage(dir, tarballs);
    if (result.tarball === undefined) throw new Error(`pnpm pack ${name} failed:\n${result.output}`);
    return result.tarball;
  });
  mkdirSync(consumer, { recursive: true });
  writeFileSync(
    join(consumer, "package.json"),
    `${JSON.stringify({ name: "matrix-consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  runOk(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...packed,
      "openapi-fetch@0.17.0",
      "hono@^4.9.0",
      "@types/node@^20.19.0",
    ],
    { cwd: consumer, env: cleanEnv(), timeoutMs: 300_000 },
  );
  for (const file of ["consumer.mjs", "consumer-types.ts", "worker.mjs", "browser.mjs"]) {
    writeFileSync(join(consumer, file), readFileSync(join(fixtures, file)));
  }

  // The browser page is served from its own origin, which the reference server lists as allowed.
  const pagePort = await freePort();
  pageOrigin = `http://127.0.0.1:${pagePort}`;
  pageServer = createServer((request, response) => {
    const file = pageFiles.get(request.url ?? "");
    response.writeHead(file === undefined ? 404 : 200, { "content-type": file?.type ?? "text/plain" });
    response.end(file?.body ?? "not found");
  });
  await new Promise<void>((done) => pageServer!.listen(pagePort, "127.0.0.1", done));

  server = await startReferenceServer({
    command: [process.execPath, join(repoRoot, "packages", "server", "dist", "main.js")],
    cwd: work,
    dataDir: "memory:",
    env: { WEBINAR_ALLOWED_ORIGINS: pageOrigin },
  });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((done) => (pageServer ? pageServer.close(done) : done(undefined)));
  rmSync(work, { recursive: true, force: true });
}, 60_000);

interface ConsumerAnswer {
  runtime: string;
  server: { status: number; created?: boolean; error?: unknown };
  hono: {
    signed: number;
    data?: { echoed: string; merchantId: string };
    replayed: string;
    unsigned: string;
    ownRoute: number;
  };
}

describe("types compile in a consumer project", () => {
  for (const resolution of ["node16", "bundler"] as const) {
    it(`tsc with moduleResolution ${resolution}`, () => {
      const tsconfig = `tsconfig.${resolution}.json`;
      writeFileSync(
        join(consumer, tsconfig),
        JSON.stringify({
          compilerOptions: {
            module: resolution === "node16" ? "node16" : "esnext",
            moduleResolution: resolution,
            target: "es2022",
            lib: ["es2022", "dom"],
            types: ["node"],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
          },
          files: ["consumer-types.ts"],
        }),
      );
      const result = run(
        process.execPath,
        [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig],
        {
          cwd: consumer,
          env: cleanEnv(),
        },
      );
      expect(output(result)).toBe("");
      expect(result.status).toBe(0);
    }, 120_000);
  }
});

const serverRuntimes = [
  {
    label: "node 20",
    install: () =>
      process.versions.node.startsWith("20.")
        ? { path: process.execPath, version: process.version }
        : ensureRuntime(repoRoot, "node20", "node@20", "node_modules/.bin/node"),
    args: [] as string[],
  },
  { label: "node 22", install: () => ensureRuntime(repoRoot, "node22", "node@22", "node_modules/.bin/node"), args: [] },
  { label: "node 24", install: () => ensureRuntime(repoRoot, "node24", "node@24", "node_modules/.bin/node"), args: [] },
  { label: "bun", install: () => ensureRuntime(repoRoot, "bun", "bun", "node_modules/.bin/bun"), args: [] },
  {
    label: "deno",
    install: () => ensureRuntime(repoRoot, "deno", "deno", "node_modules/.bin/deno"),
    args: ["run", "--allow-all"],
  },
];

describe("on each runtime: a signed call to the reference server, and the Hono adapter verifying signed requests", () => {
  for (const runtime of serverRuntimes) {
    it(runtime.label, () => {
      const installed = runtime.install();
      if (installed.path === undefined)
        throw new Error(`${runtime.label} cannot be installed here: ${installed.error}`);
      const answer = JSON.parse(
        runOk(installed.path, [...runtime.args, "consumer.mjs"], { cwd: consumer, env: serverEnv(server!) }).trim(),
      ) as ConsumerAnswer;
      if (runtime.label.startsWith("node "))
        expect(answer.runtime).toMatch(new RegExp(`^node ${runtime.label.slice(5)}\\.`));
      console.log(
        `runtime matrix: ${answer.runtime}: server call ${answer.server.status}, hono signed ${answer.hono.signed} / replayed ${answer.hono.replayed} / unsigned ${answer.hono.unsigned}`,
      );
      expect(answer.server).toEqual({ status: 200, created: true });
      expect(answer.hono).toEqual({
        signed: 200,
        data: { echoed: "hono-viewer", merchantId: "merchant-matrix" },
        replayed: "409 OPEN_API_REPLAYED",
        unsigned: "400 REQUEST_INVALID",
        ownRoute: 404,
      });
    }, 300_000);
  }
});

describe("in Chromium, from an esbuild browser bundle of the main entries", () => {
  it("signs with Web Crypto, verifies a signed Request, and signs a call to the reference server", async () => {
    const bundle = await esbuild.build({
      entryPoints: [join(consumer, "browser.mjs")],
      absWorkingDir: consumer,
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    pageFiles.set("/bundle.js", { type: "text/javascript", body: bundle.outputFiles[0]!.text });
    pageFiles.set("/", { type: "text/html", body: '<!doctype html><script type="module" src="/bundle.js"></script>' });
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage();
      await page.goto(`${pageOrigin}/`);
      await page.waitForFunction(() => typeof (globalThis as { runMatrix?: unknown }).runMatrix === "function");
      const credentials = { baseUrl: server!.url, apiKey: server!.apiKey, secret: server!.secret };
      type Credentials = typeof credentials;
      const result = await page.evaluate(
        (input: Credentials) =>
          (globalThis as unknown as { runMatrix: (i: Credentials) => Promise<unknown> }).runMatrix(input),
        credentials,
      );
      console.log(`runtime matrix: chromium ${browser.version()}: ${JSON.stringify(result)}`);
      expect(result).toEqual({
        refusedWithoutOptIn: true,
        server: { status: 200, created: true },
        signatureVerifies: true,
        verified: { ok: true, body: { externalUserId: "browser-viewer" }, replayOk: false },
      });
    } finally {
      await browser.close();
    }
  }, 180_000);
});

describe("on Workers (miniflare's workerd), from an esbuild bundle", () => {
  it("the Hono adapter verifies signed requests through dispatchFetch, and the client signs a call from the Worker", async () => {
    const installed = ensureRuntime(repoRoot, "miniflare", "miniflare@4", "node_modules/.bin/workerd");
    if (installed.path === undefined)
      throw new Error(`miniflare 4 (workerd) cannot be installed here: ${installed.error}`);
    const miniflareDir = join(dirname(installed.path), "..", "..");
    const { Miniflare } = (await import(
      pathToFileURL(createRequire(join(miniflareDir, "package.json")).resolve("miniflare")).href
    )) as { Miniflare: MiniflareClass };
    const bundle = await esbuild.build({
      entryPoints: [join(consumer, "worker.mjs")],
      absWorkingDir: consumer,
      bundle: true,
      platform: "browser",
      conditions: ["workerd", "worker", "browser"],
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const mf = new Miniflare({
      modules: true,
      script: bundle.outputFiles[0]!.text,
      compatibilityDate: "2025-01-01",
      bindings: { API_KEY: server!.apiKey, API_SECRET: server!.secret, BASE_URL: server!.url },
    });
    try {
      const toWorker = async (request: Request) => {
        const answer = await mf.dispatchFetch(request.url, {
          method: request.method,
          headers: Object.fromEntries(request.headers),
          body: request.method === "GET" ? undefined : await request.arrayBuffer(),
        });
        return new Response(await answer.arrayBuffer(), {
          status: answer.status,
          headers: Object.fromEntries(answer.headers),
        });
      };
      const { default: createClient } = await import(
        pathToFileURL(createRequire(join(consumer, "package.json")).resolve("openapi-fetch")).href
      );
      const { createSigningMiddleware } = await import(
        pathToFileURL(join(consumer, "node_modules", "@org", "webinar-client", "dist", "index.js")).href
      );
      let sent: Request | undefined;
      const api = createClient({
        baseUrl: "http://worker.test",
        fetch: (request: Request) => {
          sent = request.clone();
          return toWorker(request);
        },
      });
      api.use(createSigningMiddleware({ apiKey: server!.apiKey, secret: server!.secret }));
      const signed = await api.POST(UPSERT, { body: { externalUserId: " worker-viewer " } });
      const replayed = await toWorker(sent!);
      const clientCall = (await (await toWorker(new Request("http://worker.test/client-call"))).json()) as Record<
        string,
        unknown
      >;
      console.log(
        `runtime matrix: workerd ${installed.version}: hono signed ${signed.response.status} / replayed ${replayed.status}, client call from the Worker ${JSON.stringify(clientCall)}`,
      );
      expect(signed.response.status).toBe(200);
      expect(signed.data.data).toEqual({ echoed: "worker-viewer" });
      expect(replayed.status).toBe(409);
      expect(clientCall).toEqual({ status: 200, created: true });
    } finally {
      await mf.dispose();
    }
  }, 180_000);
});
