/**
 * Runs every x-codeSamples program (spec/code-samples/bash and python) the way a merchant would: in dry-run mode
 * against the signing vectors (spec/test-vectors/signing.json, computed by openssl), and for real against a local
 * HTTP server that checks the bytes, path and headers it receives.
 */
import { execFile } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { signingVectors as vectors, type PositiveVector as Vector } from "../test-vectors/signing-vectors";

const execFileAsync = promisify(execFile);

const OPERATIONS = {
  upsertViewer: "/api/v1/open/viewers/upsert",
  issueLoginTicket: "/api/v1/open/viewers/login-tickets",
  getWatchOverview: "/api/v1/open/watch-data/overview",
  queryViewerWatch: "/api/v1/open/watch-data/viewers/query",
} as const;
type OperationId = keyof typeof OPERATIONS;

const LANGUAGES = [
  { language: "bash", interpreter: "bash", extension: "sh" },
  { language: "python", interpreter: "python3", extension: "py" },
] as const;
type Language = (typeof LANGUAGES)[number];

const sampleFile = (language: Language, operationId: OperationId) =>
  fileURLToPath(new URL(`../code-samples/${language.language}/${operationId}.${language.extension}`, import.meta.url));

interface SampleEnv {
  WEBINAR_BASE_URL: string;
  WEBINAR_API_KEY: string;
  WEBINAR_API_SECRET: string;
  WEBINAR_BODY?: string;
  WEBINAR_TIMESTAMP?: string;
  WEBINAR_NONCE?: string;
  WEBINAR_DRY_RUN?: string;
}

/** Runs a sample with only PATH and the given variables, so nothing from the developer's shell leaks in. */
async function runSample(language: Language, operationId: OperationId, env: SampleEnv) {
  try {
    const { stdout, stderr } = await execFileAsync(language.interpreter, [sampleFile(language, operationId)], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      timeout: 30_000,
    });
    return { exitCode: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { exitCode: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

const vectorEnv = (vector: Vector, baseUrl = "https://api.example.com"): SampleEnv => ({
  WEBINAR_BASE_URL: baseUrl,
  WEBINAR_API_KEY: vector.apiKey,
  WEBINAR_API_SECRET: vector.secret,
  WEBINAR_BODY: vector.body,
  WEBINAR_TIMESTAMP: vector.timestamp,
  WEBINAR_NONCE: vector.nonce,
});

const operationOf = (vector: Vector) =>
  (Object.keys(OPERATIONS) as OperationId[]).find((operationId) => OPERATIONS[operationId] === vector.path);

const dryRunCases = vectors.positive.flatMap((vector) => {
  const operationId = operationOf(vector);
  return operationId === undefined
    ? []
    : LANGUAGES.map((language) => ({ ...language, operationId, vector, name: vector.name }));
});

interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local stand-in for the API: records each request and answers with the given status and JSON. */
async function withServer(
  answer: { status: number; json: unknown; headers?: Record<string, string> },
  use: (origin: string, received: ReceivedRequest[]) => Promise<void>,
) {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers });
      response.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, received);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Verifies a received request with node:crypto, independently of the samples (Signing requests). */
function signatureOf(secret: string, request: ReceivedRequest): string {
  const bodyHash = createHash("sha256").update(request.body).digest("hex");
  const header = (name: string) => String(request.headers[name]);
  const canonical = [header("x-api-key"), "POST", request.url, header("x-timestamp"), header("x-nonce"), bodyHash].join(
    "\n",
  );
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(canonical, "utf8").digest("hex");
}

const firstVector = (operationId: OperationId) =>
  vectors.positive.find((vector) => vector.path === OPERATIONS[operationId])!;
const liveCases = (Object.keys(OPERATIONS) as OperationId[]).flatMap((operationId) =>
  LANGUAGES.map((language) => ({ ...language, operationId })),
);
const ok = { status: 200, json: { requestId: "req_sample_test_1", data: { ok: true } } };

describe("code samples", () => {
  it.each(liveCases)("x-codeSamples file exists: $language/$operationId", ({ operationId, ...language }) => {
    expect(existsSync(sampleFile(language, operationId))).toBe(true);
  });

  it.each(LANGUAGES)("$language: every sample is a known operation (no untested file)", (language) => {
    const files = readdirSync(fileURLToPath(new URL(`../code-samples/${language.language}/`, import.meta.url)));
    expect(files.sort()).toEqual(
      Object.keys(OPERATIONS)
        .map((id) => `${id}.${language.extension}`)
        .sort(),
    );
  });

  it.each(Object.keys(OPERATIONS) as OperationId[])("signing.json has a positive vector for %s", (operationId) => {
    expect(dryRunCases.filter((testCase) => testCase.operationId === operationId)).not.toHaveLength(0);
  });

  it.each(dryRunCases)(
    "Signing requests: $language/$operationId dry run prints the vector's signature: $name",
    async ({ operationId, vector, ...language }) => {
      const result = await runSample(language, operationId, { ...vectorEnv(vector), WEBINAR_DRY_RUN: "1" });
      expect(result).toMatchObject({ exitCode: 0, stderr: "" });
      const printed = (header: string) => new RegExp(`^${header}: (.*)$`, "m").exec(result.stdout)?.[1];
      expect(printed("X-Signature")).toBe(vector.signature);
      expect(printed("X-API-Key")).toBe(vector.apiKey);
      expect(printed("X-Timestamp")).toBe(vector.timestamp);
      expect(printed("X-Nonce")).toBe(vector.nonce);
      expect(result.stdout).toContain(`canonical:\n${vector.canonical}\n`);
    },
  );

  it.each(liveCases)(
    "Signing requests: $language/$operationId sends exactly the signed bytes, path and headers",
    async ({ operationId, ...language }) => {
      const vector = firstVector(operationId);
      await withServer(ok, async (origin, received) => {
        const result = await runSample(language, operationId, vectorEnv(vector, origin));
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toContain("req_sample_test_1");
        expect(received).toHaveLength(1);
        const [request] = received as [ReceivedRequest];
        expect(request.method).toBe("POST");
        expect(request.url).toBe(vector.path);
        expect(request.body.equals(Buffer.from(vector.body, "utf8"))).toBe(true);
        expect(request.headers["content-type"]).toBe("application/json");
        expect(request.headers["content-encoding"] ?? "identity").toBe("identity");
        expect(request.headers).toMatchObject({
          "x-api-key": vector.apiKey,
          "x-timestamp": vector.timestamp,
          "x-nonce": vector.nonce,
          "x-signature": vector.signature,
        });
      });
    },
  );

  it.each(liveCases)(
    "Signing requests: $language/$operationId with its built-in body: fresh seconds timestamp, 32-hex nonce, valid signature",
    async ({ operationId, ...language }) => {
      const secret = "sample-secret 张三 🎉";
      await withServer(ok, async (origin, received) => {
        const before = Math.floor(Date.now() / 1000);
        const result = await runSample(language, operationId, {
          WEBINAR_BASE_URL: origin,
          WEBINAR_API_KEY: "wk_test_samples",
          WEBINAR_API_SECRET: secret,
        });
        expect(result.exitCode).toBe(0);
        const [request] = received as [ReceivedRequest];
        expect(request.url).toBe(OPERATIONS[operationId]);
        expect(JSON.parse(request.body.toString("utf8"))).toBeTypeOf("object");
        expect(request.headers["x-nonce"]).toMatch(/^[0-9a-f]{32}$/);
        expect(Number(request.headers["x-timestamp"])).toBeGreaterThanOrEqual(before);
        expect(Number(request.headers["x-timestamp"])).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
        expect(request.headers["x-signature"]).toBe(signatureOf(secret, request));
      });
    },
  );

  it.each(liveCases)(
    "Signing requests: $language/$operationId signs the base URL's path prefix as part of the path",
    async ({ operationId, ...language }) => {
      const vector = firstVector(operationId);
      await withServer(ok, async (origin, received) => {
        const result = await runSample(language, operationId, vectorEnv(vector, `${origin}/gateway/webinar/`));
        expect(result.exitCode).toBe(0);
        const [request] = received as [ReceivedRequest];
        expect(request.url).toBe(`/gateway/webinar${vector.path}`);
        expect(request.headers["x-signature"]).toBe(signatureOf(vector.secret, request));
        expect(request.headers["x-signature"]).not.toBe(vector.signature);
      });
    },
  );

  it.each(liveCases)(
    "Errors and retries: $language/$operationId prints the error envelope and exits non-zero on 401",
    async ({ operationId, ...language }) => {
      const unauthorized = {
        status: 401,
        json: {
          requestId: "req_sample_test_401",
          error: { code: "OPEN_API_UNAUTHORIZED", message: "signature mismatch" },
        },
      };
      await withServer(unauthorized, async (origin) => {
        const result = await runSample(language, operationId, vectorEnv(firstVector(operationId), origin));
        expect(result.exitCode).not.toBe(0);
        expect(result.stdout).toContain("OPEN_API_UNAUTHORIZED");
        expect(result.stdout).toContain("req_sample_test_401");
      });
    },
  );

  // urllib follows 302 by turning the POST into a GET; curl follows nothing without -L. Neither may follow (Signing
  // requests).
  const redirectCases = liveCases.flatMap((testCase) => [302, 307].map((status) => ({ ...testCase, status })));
  it.each(redirectCases)(
    "Signing requests: $language/$operationId does not follow a $status redirect",
    async ({ operationId, status, ...language }) => {
      const redirect = { status, json: {}, headers: { Location: "/elsewhere" } };
      await withServer(redirect, async (origin, received) => {
        await runSample(language, operationId, vectorEnv(firstVector(operationId), origin));
        expect(received.map((request) => request.url)).toEqual([OPERATIONS[operationId]]);
      });
    },
  );

  it.each(Object.keys(OPERATIONS) as OperationId[])(
    "python/%s parses with the Python 3.8 grammar",
    async (operationId) => {
      const file = sampleFile(LANGUAGES[1], operationId);
      const check = "import ast, sys; ast.parse(open(sys.argv[1], encoding='utf-8').read(), feature_version=(3, 8))";
      await expect(execFileAsync("python3", ["-c", check, file])).resolves.toMatchObject({ stderr: "" });
    },
  );

  it.each(Object.keys(OPERATIONS) as OperationId[])("bash/%s passes bash -n", async (operationId) => {
    await expect(execFileAsync("bash", ["-n", sampleFile(LANGUAGES[0], operationId)])).resolves.toMatchObject({
      stderr: "",
    });
  });
});
