/**
 * Writes spec/test-vectors/requests/<operationId>.json from scripts/request-vectors.ts:
 * `pnpm --filter @org/webinar-validator exec tsx scripts/write-request-vectors.ts`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderRequestVectors, requestVectorsFolder } from "./request-vectors";

const folder = fileURLToPath(requestVectorsFolder);
mkdirSync(folder, { recursive: true });
for (const [operationId, text] of Object.entries(renderRequestVectors())) {
  writeFileSync(`${folder}${operationId}.json`, text);
  console.log(`${operationId}: ${(JSON.parse(text) as unknown[]).length} vectors`);
}
