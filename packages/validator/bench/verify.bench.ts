/**
 * `pnpm --filter @org/webinar-validator bench`: prints what the verification pipeline costs. Never a test:
 * figures depend on the machine, so nothing here asserts a time.
 *
 * Measures the built package (what users import; `pnpm bench` builds first).
 *
 * 1. µs per verify + nonce + parse + validate of a typical upsert (memory nonce store, a unique nonce per request,
 *    requests signed beforehand), beside a bare node:http round trip (a keep-alive POST of the same body to a server
 *    in this process that answers a small JSON), measured in the same rounds: the pipeline's share of a round trip;
 * 2. its parts: parseAndValidate, the memory nonce store;
 * 3. express-openapi-validator validating the same body against the same spec, in the same run;
 * 4. the load time of the generated validators (and of the built package), each in a fresh child process once
 *    Node's module loader is set up (its one-time setup is printed beside them).
 */
import { execFileSync } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { Agent, createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { canonicalString, createSigner } from "@org/webinar-signing";
import * as OpenApiValidator from "express-openapi-validator";
import { loadSpec } from "../scripts/spec-schemas";
import {
  createMemoryNonceStore,
  createRequestVerifier,
  parseAndValidate,
  type ApiKeyRecord,
  type IncomingRequest,
} from "@org/webinar-validator";
import { median } from "@org/webinar-internal/median";

const ROUNDS = 5;
const REQUESTS_PER_ROUND = 20_000;
const ROUND_TRIPS_PER_ROUND = 2_000;
const WARMUP = 5_000;
const BATCH = 500;

const apiKey = "wk_live_7Qm2x9Lp4Rt8Vb1N";
const secret = "Vq7#tR2m!Lp9@xZ4&nB6^wK1";
const path = "/api/v1/open/viewers/upsert";
const rawBody = '{"externalUserId":"crm-000123","phone":"13800138000","displayName":"Alice Chen"}';
const bodyBytes = new TextEncoder().encode(rawBody);
// Its signer prepared once, as a server that keeps its key records in memory returns it.
const record: ApiKeyRecord = { secret, merchantId: "m_bench", status: "ACTIVE", signer: createSigner(secret) };

const fmt = (value: number, digits = 2) => value.toFixed(digits).padStart(7);

/** Requests as node:http would hand them over (headersDistinct), each signed with its own nonce (node:crypto). */
function signedRequests(count: number, timestamp: string): IncomingRequest[] {
  const bodyHash = createHash("sha256").update(bodyBytes).digest("hex");
  return Array.from({ length: count }, () => {
    const nonce = randomBytes(16).toString("hex");
    const signature = createHmac("sha256", secret)
      .update(canonicalString({ apiKey, path, timestamp, nonce, bodyHash }))
      .digest("hex");
    return {
      method: "POST",
      rawPath: path,
      headers: {
        host: ["127.0.0.1:8080"],
        "content-type": ["application/json"],
        "content-length": [String(bodyBytes.byteLength)],
        "x-api-key": [apiKey],
        "x-timestamp": [timestamp],
        "x-nonce": [nonce],
        "x-signature": [signature],
      },
      body: bodyBytes,
    };
  });
}

/** A bare node:http server answering every POST with a small JSON, and a keep-alive client sending the upsert body. */
async function bareRoundTrip(): Promise<{ run(count: number): Promise<void>; close(): Promise<void> }> {
  const answer = JSON.stringify({ requestId: "req_bench", data: { ok: true } });
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () =>
      res
        .writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(answer) })
        .end(answer),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path,
          agent,
          headers: { "Content-Type": "application/json", "Content-Length": bodyBytes.byteLength },
        },
        (response) => {
          response.resume();
          response.on("end", resolve);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(bodyBytes);
    });
  return {
    async run(count) {
      for (let index = 0; index < count; index += 1) await once();
    },
    async close() {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * µs per request of the pipeline and per bare round trip, each the median over the rounds, and the median of each
 * round's ratio. A round measures the round trips right after the pipeline, so the ratio compares figures taken
 * moments apart and this shared machine's drift stays out of it.
 */
async function benchPipeline(): Promise<{ pipeline: number; roundTrip: number; share: number }> {
  const now = Date.now();
  const timestamp = String(Math.floor(now / 1000));
  const verifier = createRequestVerifier({
    lookupKey: async (key) => (key === apiKey ? record : undefined),
    nonceStore: createMemoryNonceStore({ maxEntries: (ROUNDS * REQUESTS_PER_ROUND + WARMUP) * 2, now: () => now }),
    now: () => now,
  });
  for (const request of signedRequests(WARMUP, timestamp)) {
    const result = await verifier.verify(request);
    if (!result.ok) throw new Error(`bench request rejected: ${JSON.stringify(result.body)}`);
  }
  const roundTrip = await bareRoundTrip();
  await roundTrip.run(ROUND_TRIPS_PER_ROUND);
  const pipeline: number[] = [];
  const trips: number[] = [];
  const shares: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      // Signed in small batches outside the timed loops, so the requests waiting their turn stay few and young
      // (a pile of 20 000 pre-signed requests would make the collector's work part of the figure).
      let elapsed = 0;
      for (let batch = 0; batch < REQUESTS_PER_ROUND / BATCH; batch += 1) {
        const requests = signedRequests(BATCH, timestamp);
        const start = performance.now();
        for (const request of requests) await verifier.verify(request);
        elapsed += performance.now() - start;
      }
      const start = performance.now();
      await roundTrip.run(ROUND_TRIPS_PER_ROUND);
      const tripElapsed = performance.now() - start;
      const perRequest = (elapsed * 1000) / REQUESTS_PER_ROUND;
      const perTrip = (tripElapsed * 1000) / ROUND_TRIPS_PER_ROUND;
      pipeline.push(perRequest);
      trips.push(perTrip);
      shares.push(perRequest / perTrip);
    }
  } finally {
    await roundTrip.close();
  }
  return { pipeline: median(pipeline), roundTrip: median(trips), share: median(shares) };
}

/** Median µs per call of `run(count)` over the rounds, after a warm-up. */
async function perCall(run: (count: number) => unknown): Promise<number> {
  await run(WARMUP);
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = performance.now();
    await run(REQUESTS_PER_ROUND);
    times.push(((performance.now() - start) * 1000) / REQUESTS_PER_ROUND);
  }
  return median(times);
}

/** The memory nonce store growing to the pipeline's size, one fresh nonce per call (awaited, as the pipeline does). */
function benchNonceStore(): Promise<number> {
  const now = Date.now();
  const store = createMemoryNonceStore({ maxEntries: (ROUNDS * REQUESTS_PER_ROUND + WARMUP) * 2, now: () => now });
  const nonces = Array.from({ length: ROUNDS * REQUESTS_PER_ROUND + WARMUP }, () => randomBytes(16).toString("hex"));
  let next = 0;
  return perCall(async (count) => {
    for (let index = 0; index < count; index += 1) await store.consume(apiKey, nonces[next++]!, now + 600_000);
  });
}

function benchParseAndValidate(): Promise<number> {
  return perCall((count) => {
    for (let index = 0; index < count; index += 1)
      if (!parseAndValidate("upsertViewer", bodyBytes).ok) throw new Error("invalid bench body");
  });
}

/**
 * express-openapi-validator's middleware chain (route lookup + request validation of the already parsed body),
 * driven directly with a minimal Express-shaped request so no HTTP or JSON parsing is measured.
 */
async function benchExpressOpenApiValidator(): Promise<number> {
  const document = structuredClone(loadSpec().document) as unknown as {
    paths: Record<string, { post: Record<string, unknown> }>;
  };
  // x-codeSamples refer to shell and Python files its $ref resolver cannot parse.
  for (const item of Object.values(document.paths)) delete item.post["x-codeSamples"];
  const chain = OpenApiValidator.middleware({
    apiSpec: document as never,
    validateRequests: true,
    validateResponses: false,
    validateSecurity: false,
    validateApiSpec: false,
  });
  const run = () =>
    new Promise<void>((resolve, reject) => {
      const req = {
        method: "POST",
        url: path,
        originalUrl: path,
        path,
        baseUrl: "",
        headers: { "content-type": "application/json" },
        body: JSON.parse(rawBody) as unknown,
        query: {},
        params: {},
        cookies: {},
        app: { enabled: () => false },
      };
      let index = 0;
      const next = (error?: unknown) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const middleware = chain[index++];
        if (middleware === undefined) return resolve();
        (middleware as (req: unknown, res: unknown, next: (error?: unknown) => void) => void)(req, {}, next);
      };
      next();
    });
  return perCall(async (count) => {
    for (let index = 0; index < count; index += 1) await run();
  });
}

/**
 * Milliseconds to load `file` in a fresh Node process (median of several processes). The process first loads a
 * trivial file the same way (an empty module, or this package's package.json), so the figure is the cost of the
 * file itself, not of Node setting up its module loader on first use, which costs every program the same.
 */
function loadTime(file: string, kind: "import" | "require"): number {
  const script =
    kind === "import"
      ? `await import(${JSON.stringify(pathToFileURL(emptyModule).href)}); const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`
      : `require(${JSON.stringify(packageJson)}); const t = performance.now(); require(${JSON.stringify(file)}); console.log(performance.now() - t);`;
  const args = kind === "import" ? ["--input-type=module", "-e", script] : ["-e", script];
  const times = Array.from({ length: 7 }, () =>
    Number(execFileSync(process.execPath, args, { encoding: "utf8" }).trim()),
  );
  return median(times);
}

/** What the first load of any module costs in a fresh process (the loader's own setup), for reference. */
function loaderSetupTime(): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(emptyModule).href)}); console.log(performance.now() - t);`;
  return median(
    Array.from({ length: 7 }, () =>
      Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim()),
    ),
  );
}

const { pipeline, roundTrip, share } = await benchPipeline();
const parseValidate = await benchParseAndValidate();
const nonceStore = await benchNonceStore();
const expressOpenApi = await benchExpressOpenApiValidator();

const packageJson = fileURLToPath(new URL("../package.json", import.meta.url));
const emptyModule = join(mkdtempSync(join(tmpdir(), "validator-bench-")), "empty.mjs");
writeFileSync(emptyModule, "export {};\n");
const requestModule = fileURLToPath(new URL("../src/request-validators.gen.js", import.meta.url));
const responseModule = fileURLToPath(new URL("../src/response-validators.gen.js", import.meta.url));
const distEsm = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const distCjs = fileURLToPath(new URL("../dist/index.cjs", import.meta.url));

console.log(
  `@org/webinar-validator bench (Node ${process.version}, median of ${ROUNDS} rounds x ${REQUESTS_PER_ROUND} requests)`,
);
console.log(`verify + nonce + parse + validate (upsert, ${bodyBytes.byteLength} B): ${fmt(pipeline)} µs/request`);
console.log(`bare node:http round trip (keep-alive POST, same body): ${fmt(roundTrip)} µs/request`);
console.log(`  pipeline / round trip: ${fmt(share * 100, 1).trim()} % (median of per-round ratios; goal <= 10 %)`);
console.log(`  of which parseAndValidate (decode + JSON.parse + ajv + rules): ${fmt(parseValidate).trim()} µs`);
console.log(
  `  of which memory nonce store (growing to ${ROUNDS * REQUESTS_PER_ROUND + WARMUP} nonces): ${fmt(nonceStore).trim()} µs`,
);
console.log(
  `express-openapi-validator, same body and spec:        ${fmt(expressOpenApi)} µs/request (route lookup + validation of the parsed body; ${fmt(expressOpenApi / parseValidate, 1).trim()}x parseAndValidate)`,
);
/** The load time, or why it could not be measured (e.g. dist/ being rebuilt by a concurrent build). */
const loadFigure = (file: string, kind: "import" | "require") => {
  if (!existsSync(file)) return "    n/a (not built)";
  try {
    return `${fmt(loadTime(file, kind))} ms`;
  } catch (error) {
    return `    n/a (${(error as Error).message.split("\n")[0]})`;
  }
};
console.log(
  `load src/request-validators.gen.js (import):          ${loadFigure(requestModule, "import")}           target < 10 ms`,
);
console.log(
  `load src/response-validators.gen.js (import):         ${loadFigure(responseModule, "import")}           (contract tests only)`,
);
console.log(`load dist/index.js, whole package (import):          ${loadFigure(distEsm, "import")}`);
console.log(`load dist/index.cjs, whole package (require):        ${loadFigure(distCjs, "require")}`);
console.log(
  `  (each after the module loader is set up; that setup, paid once by every program: ${fmt(loaderSetupTime()).trim()} ms)`,
);
