/**
 * The TypeScript x-codeSamples (spec/code-samples/typescript/<operationId>.ts) are real programs: they type-check
 * in strict mode against the client's sources, the spec references each of them, and each one runs against the
 * verifying server and sends a correctly signed request to its operation.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { operations, type OperationId } from "@org/webinar-types";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { startServer } from "./support/fixtures";
import { runTypeScript } from "./support/run-typescript";
import { TEST_API_KEY, TEST_SECRET } from "./support/verifying-server";

const samplesDir = fileURLToPath(new URL("../../../spec/code-samples/typescript/", import.meta.url));
const specText = readFileSync(new URL("../../../spec/openapi.yaml", import.meta.url), "utf8");
const operationIds = Object.keys(operations) as OperationId[];
const sampleOf = (operationId: OperationId) => `${samplesDir}${operationId}.ts`;

describe("TypeScript code samples", () => {
  it("there is one sample per operation and no other file", () => {
    expect(readdirSync(samplesDir).sort()).toEqual(operationIds.map((id) => `${id}.ts`).sort());
  });

  it.each(operationIds)("the spec's x-codeSamples of %s references its sample as lang TypeScript", (operationId) => {
    expect(specText).toMatch(new RegExp(`- lang: TypeScript\\n\\s+label: [^\\n]+\\n\\s+source:\\n\\s+\\$ref: \\./code-samples/typescript/${operationId}\\.ts\\n`));
  });

  it("every sample type-checks in strict mode, importing @org/webinar-client", () => {
    const base = ts.getParsedCommandLineOfConfigFile(fileURLToPath(new URL("../../../tsconfig.base.json", import.meta.url)), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    const program = ts.createProgram(operationIds.map(sampleOf), {
      ...base!.options,
      noEmit: true,
      paths: { "@org/webinar-client": [fileURLToPath(new URL("../src/index.ts", import.meta.url))] },
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(diagnostics).toEqual([]);
    for (const operationId of operationIds) expect(readFileSync(sampleOf(operationId), "utf8")).toContain('from "@org/webinar-client"');
  }, 60_000);

  const expectations: Record<OperationId, { stdout: RegExp }> = {
    upsertViewer: { stdout: /^created \{/m },
    issueLoginTicket: { stdout: new RegExp(`^https://watch\\.example\\.com/w/${TICKET_CODE}#login_ticket=\\S+ \\d{4}-`, "m") },
    getWatchOverview: { stdout: /^PROVISIONAL 2 viewers, \d+ s watched$/m },
    queryViewerWatch: { stdout: /^10001 crm-1 \d+$/m },
  };

  it.each(operationIds)("%s runs against the verifying server and sends one signed request to its operation", async (operationId) => {
    const server = await startServer({ dataset: createDataset(2) });
    const result = await runTypeScript(sampleOf(operationId), [], { WEBINAR_BASE_URL: server.baseUrl, WEBINAR_API_KEY: TEST_API_KEY, WEBINAR_API_SECRET: TEST_SECRET });
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    expect(result.stdout).toMatch(expectations[operationId].stdout);
    expect(server.received.map((request) => [request.url, request.verdict])).toEqual([[operations[operationId].path, "ok"]]);
  });
});
