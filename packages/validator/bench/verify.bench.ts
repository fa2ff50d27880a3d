/**
 * `pnpm --filter @org/webinar-validator bench`: prints what the verification pipeline costs. Never a test:
 * figures depend on the machine, so nothing here asserts a time.
 *
 * Measures the built package (what users import; `pnpm bench` builds first).
 *
 * 1. µs per verify + nonce + parse + validate of a typical upsert (memory nonce store, a unique nonce per
 *    request, requests signed beforehand), and its ratio to a bare `createHmac` over the same canonical string;
 * 2. express-openapi-validator validating the same body against the same spec, in the same run;
 * 3. the load time of the generated validators (and of the built package), each in a fresh child process once
 *    Node's module loader is set up (its one-time setup is printed beside them).
 */
import { execFileSync } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bodyHash, canonicalString, verify } from "@org/webinar-signing";
import * as OpenApiValidator from "express-openapi-validator";
import { loadSpec } from "../scripts/spec-schemas";
import { createMemoryNonceStore, createRequestVerifier, parseAndValidate, type ApiKeyRecord, type IncomingRequest } from "@org/webinar-validator";

const ROUNDS = 5;
const REQUESTS_PER_ROUND = 20_000;
const WARMUP = 5_000;
const BATCH = 500;

const apiKey = "wk_live_7Qm2x9Lp4Rt8Vb1N";
const secret = "Vq7#tR2m!Lp9@xZ4&nB6^wK1";
const path = "/api/v1/open/viewers/upsert";
const rawBody = '{"externalUserId":"crm-000123","phone":"13800138000","displayName":"Alice Chen"}';
const bodyBytes = new TextEncoder().encode(rawBody);
const record: ApiKeyRecord = { secret, merchantId: "m_bench", status: "ACTIVE" };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (value: number, digits = 2) => value.toFixed(digits).padStart(7);
// Signing the bench's requests, straight from node:crypto.
const bodyHashSync = (body: Uint8Array) => createHash("sha256").update(body).digest("hex");
const signSync = (key: string, canonical: string) => createHmac("sha256", key).update(canonical, "utf8").digest("hex");

/** Requests as node:http would hand them over (headersDistinct), each with its own nonce and signature. */
function signedRequests(count: number, timestamp: string): IncomingRequest[] {
  const hash = bodyHashSync(bodyBytes);
  return Array.from({ length: count }, () => {
    const nonce = randomBytes(16).toString("hex");
    const signature = signSync(secret, canonicalString({ apiKey, path, timestamp, nonce, bodyHash: hash }));
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

/** The bare HMAC of the ratio: `createHmac` with the secret as given, over the canonical string of one request. */
function bareHmacLoop(count: number): number {
  const canonical = canonicalString({ apiKey, path, timestamp: "1767225600", nonce: "3f9c2a7d51e84b06a1c9e2f47d8b3a65", bodyHash: bodyHashSync(bodyBytes) });
  let sink = 0;
  for (let index = 0; index < count; index += 1) sink ^= createHmac("sha256", secret).update(canonical).digest("hex").charCodeAt(0);
  return sink;
}

/**
 * µs per request of the pipeline and per bare HMAC, each the median over the rounds, and the median of each
 * round's ratio. A round times the bare HMAC right after the pipeline, so the ratio compares figures taken moments
 * apart and this VM's drift (the same HMAC has read anywhere from 1.7 to 4.8 µs within a day) stays out of it.
 */
async function benchPipeline(): Promise<{ pipeline: number; hmac: number; ratio: number }> {
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
  bareHmacLoop(WARMUP);
  const pipeline: number[] = [];
  const hmac: number[] = [];
  const ratios: number[] = [];
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
    bareHmacLoop(REQUESTS_PER_ROUND);
    const hmacElapsed = performance.now() - start;
    pipeline.push((elapsed * 1000) / REQUESTS_PER_ROUND);
    hmac.push((hmacElapsed * 1000) / REQUESTS_PER_ROUND);
    ratios.push(elapsed / hmacElapsed);
  }
  return { pipeline: median(pipeline), hmac: median(hmac), ratio: median(ratios) };
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

/** The signing package's share of the pipeline: body hash, canonical string, signature verification. */
async function benchSigningSteps(): Promise<{ hash: number; canonical: number; verify: number }> {
  const input = { apiKey, method: "POST", path, timestamp: "1767225600", nonce: "3f9c2a7d51e84b06a1c9e2f47d8b3a65", bodyHash: bodyHashSync(bodyBytes) };
  const canonical = canonicalString(input);
  const signature = signSync(secret, canonical);
  let sink = 0;
  const hash = await perCall(async (count) => {
    for (let index = 0; index < count; index += 1) sink ^= (await bodyHash(bodyBytes)).length;
  });
  const canonicalCost = await perCall((count) => {
    for (let index = 0; index < count; index += 1) sink ^= canonicalString(input).length;
  });
  const verifyCost = await perCall(async (count) => {
    for (let index = 0; index < count; index += 1) if (!(await verify(secret, canonical, signature))) throw new Error("bench signature rejected");
  });
  if (sink === -1) console.log(sink);
  return { hash, canonical: canonicalCost, verify: verifyCost };
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
    for (let index = 0; index < count; index += 1) if (!parseAndValidate("upsertViewer", bodyBytes).ok) throw new Error("invalid bench body");
  });
}

/**
 * express-openapi-validator's middleware chain (route lookup + request validation of the already parsed body),
 * driven directly with a minimal Express-shaped request so no HTTP or JSON parsing is measured.
 */
async function benchExpressOpenApiValidator(): Promise<number> {
  const document = structuredClone(loadSpec().document) as unknown as { paths: Record<string, { post: Record<string, unknown> }> };
  // x-codeSamples refer to shell and Python files its $ref resolver cannot parse.
  for (const item of Object.values(document.paths)) delete item.post["x-codeSamples"];
  const chain = OpenApiValidator.middleware({ apiSpec: document as never, validateRequests: true, validateResponses: false, validateSecurity: false, validateApiSpec: false });
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
  const times = Array.from({ length: 7 }, () => Number(execFileSync(process.execPath, args, { encoding: "utf8" }).trim()));
  return median(times);
}

/** What the first load of any module costs in a fresh process (the loader's own setup), for reference. */
function loaderSetupTime(): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(emptyModule).href)}); console.log(performance.now() - t);`;
  return median(Array.from({ length: 7 }, () => Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim())));
}

const { pipeline, hmac, ratio } = await benchPipeline();
const parseValidate = await benchParseAndValidate();
const signingSteps = await benchSigningSteps();
const nonceStore = await benchNonceStore();
const expressOpenApi = await benchExpressOpenApiValidator();

const packageJson = fileURLToPath(new URL("../package.json", import.meta.url));
const emptyModule = join(mkdtempSync(join(tmpdir(), "validator-bench-")), "empty.mjs");
writeFileSync(emptyModule, "export {};\n");
const requestModule = fileURLToPath(new URL("../src/request-validators.gen.js", import.meta.url));
const responseModule = fileURLToPath(new URL("../src/response-validators.gen.js", import.meta.url));
const distEsm = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const distCjs = fileURLToPath(new URL("../dist/index.cjs", import.meta.url));

console.log(`@org/webinar-validator bench (Node ${process.version}, median of ${ROUNDS} rounds x ${REQUESTS_PER_ROUND} requests)`);
console.log(`verify + nonce + parse + validate (upsert, ${bodyBytes.byteLength} B): ${fmt(pipeline)} µs/request   target <= 8 µs`);
console.log(`bare createHmac over the same canonical string:       ${fmt(hmac)} µs/call      ratio ${fmt(ratio, 1)}x (target <= 4x, median of per-round ratios)`);
console.log(`  of which @org/webinar-signing: bodyHash ${fmt(signingSteps.hash).trim()} + canonicalString ${fmt(signingSteps.canonical).trim()} + verify ${fmt(signingSteps.verify).trim()} = ${fmt(signingSteps.hash + signingSteps.canonical + signingSteps.verify).trim()} µs`);
console.log(`  of which parseAndValidate (decode + JSON.parse + ajv + rules): ${fmt(parseValidate).trim()} µs`);
console.log(`  of which memory nonce store (growing to ${ROUNDS * REQUESTS_PER_ROUND + WARMUP} nonces): ${fmt(nonceStore).trim()} µs`);
console.log(`express-openapi-validator, same body and spec:        ${fmt(expressOpenApi)} µs/request (route lookup + validation of the parsed body; ${fmt(expressOpenApi / parseValidate, 1).trim()}x parseAndValidate)`);
/** The load time, or why it could not be measured (e.g. dist/ being rebuilt by a concurrent build). */
const loadFigure = (file: string, kind: "import" | "require") => {
  if (!existsSync(file)) return "    n/a (not built)";
  try {
    return `${fmt(loadTime(file, kind))} ms`;
  } catch (error) {
    return `    n/a (${(error as Error).message.split("\n")[0]})`;
  }
};
console.log(`load src/request-validators.gen.js (import):          ${loadFigure(requestModule, "import")}           target < 10 ms`);
console.log(`load src/response-validators.gen.js (import):         ${loadFigure(responseModule, "import")}           (contract tests only)`);
console.log(`load dist/index.js, whole package (import):          ${loadFigure(distEsm, "import")}`);
console.log(`load dist/index.cjs, whole package (require):        ${loadFigure(distCjs, "require")}`);
console.log(`  (each after the module loader is set up; that setup, paid once by every program: ${fmt(loaderSetupTime()).trim()} ms)`);
