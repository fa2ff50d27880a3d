/**
 * The TypeScript x-codeSamples are real programs, two per operation: openapi-fetch with the signing middleware
 * (spec/code-samples/typescript/openapi-fetch/<operationId>.ts, the first TypeScript sample of each operation) and
 * the typed client (.../webinar-client/<operationId>.ts). They type-check in strict mode against the workspace's
 * sources, the spec references each of them in that order, and each one runs against the verifying server and
 * sends one correctly signed request to its operation.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { operations, type OperationId } from "@org/webinar-types";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { startServer } from "./support/fixtures";
import { runTypeScript, SPAWN_TIMEOUT_MS } from "./support/run-typescript";
import { TEST_API_KEY, TEST_SECRET } from "./support/verifying-server";

const samplesDir = fileURLToPath(new URL("../../../spec/code-samples/typescript/", import.meta.url));
const specText = readFileSync(new URL("../../../spec/openapi.yaml", import.meta.url), "utf8");
const operationIds = Object.keys(operations) as OperationId[];
/** The TypeScript samples of an operation, in the order the spec lists them, and what each must import. */
const kinds = [
  { kind: "openapi-fetch", imports: ['from "openapi-fetch"', "createSigningMiddleware"] },
  { kind: "webinar-client", imports: ["createWebinarClient"] },
] as const;
const sampleOf = (kind: string, operationId: OperationId) => `${samplesDir}${kind}/${operationId}.ts`;
const samples = kinds.flatMap(({ kind }) =>
  operationIds.map((operationId) => ({ kind, operationId, file: sampleOf(kind, operationId) })),
);
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe("TypeScript code samples", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it.each(kinds)("$kind: one sample per operation and no other file", ({ kind }) => {
    expect(readdirSync(`${samplesDir}${kind}`).sort()).toEqual(operationIds.map((id) => `${id}.ts`).sort());
  });

  it.each(operationIds)(
    "the spec's x-codeSamples of %s list openapi-fetch + signing middleware first, then the typed client",
    (operationId) => {
      const typeScriptSamples = [
        ...specText.matchAll(
          /- lang: TypeScript\n\s+label: ([^\n]+)\n\s+source:\n\s+\$ref: \.\/code-samples\/typescript\/([^\n]+)\n/g,
        ),
      ]
        .filter((match) => match[2]!.endsWith(`/${operationId}.ts`))
        .map((match) => [match[1], match[2]]);
      expect(typeScriptSamples).toEqual([
        ["TypeScript (openapi-fetch + signing middleware)", `openapi-fetch/${operationId}.ts`],
        ["TypeScript (@org/webinar-client)", `webinar-client/${operationId}.ts`],
      ]);
    },
  );

  it("every sample type-checks in strict mode against the workspace's sources and imports what its kind shows", () => {
    const base = ts.getParsedCommandLineOfConfigFile(
      source("../../../tsconfig.base.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    const program = ts.createProgram(
      samples.map((sample) => sample.file),
      {
        ...base!.options,
        noEmit: true,
        paths: {
          "@org/webinar-client": [source("../src/index.ts")],
          "@org/webinar-signing": [source("../../signing/src/index.ts")],
          "@org/webinar-types": [source("../../types/src/index.ts")],
          "openapi-fetch": [source("../node_modules/openapi-fetch/dist/index.d.mts")],
        },
      },
    );
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(diagnostics).toEqual([]);
    for (const { kind, file } of samples) {
      const text = readFileSync(file, "utf8");
      for (const expected of kinds.find((entry) => entry.kind === kind)!.imports) expect(text).toContain(expected);
    }
  }, 60_000);

  const expectations: Record<OperationId, { stdout: RegExp }> = {
    upsertViewer: { stdout: /^created \{/m },
    issueLoginTicket: {
      stdout: new RegExp(`^https://watch\\.example\\.com/w/${TICKET_CODE}#login_ticket=\\S+ \\d{4}-`, "m"),
    },
    getWatchOverview: { stdout: /^PROVISIONAL 2 viewers, \d+ s watched$/m },
    queryViewerWatch: { stdout: /^10001 crm-1 \d+$/m },
  };

  it.each(samples)(
    "$kind/$operationId runs against the verifying server and sends one signed request to its operation",
    async ({ operationId, file }) => {
      const server = await startServer({ dataset: createDataset(2) });
      const result = await runTypeScript(file, [], {
        WEBINAR_BASE_URL: server.baseUrl,
        WEBINAR_API_KEY: TEST_API_KEY,
        WEBINAR_API_SECRET: TEST_SECRET,
      });
      expect(result).toMatchObject({ exitCode: 0, stderr: "" });
      expect(result.stdout).toMatch(expectations[operationId].stdout);
      expect(server.received.map((request) => [request.url, request.verdict])).toEqual([
        [operations[operationId].path, "ok"],
      ]);
    },
  );
});
