/**
 * Every file generated from admin-openapi.yaml, by absolute path, without writing them: into src/,
 * admin-openapi.gen.ts (openapi-typescript's types) and admin-validators.gen.js with its declarations (the
 * precompiled request validators and the operation table), rendered by @org/webinar-build/api-documents as every
 * API document of the repository is. Written by generate.ts, compared with the checked-in files by
 * test/generated.test.ts.
 */
import { fileURLToPath } from "node:url";
import { loadApiDocument, type RenderedModules, renderDocumentModules } from "@org/webinar-build/api-documents";

export async function renderContract(): Promise<{ sha256: string; files: RenderedModules }> {
  const document = loadApiDocument({
    name: "admin",
    path: fileURLToPath(new URL("../admin-openapi.yaml", import.meta.url)),
  });
  const files = await renderDocumentModules(document, {
    folder: fileURLToPath(new URL("../src/", import.meta.url)),
    generator: "packages/admin-contract/scripts/generate.ts",
    source: "packages/admin-contract/admin-openapi.yaml",
    command: "pnpm --filter @org/webinar-admin-contract generate",
  });
  return { sha256: document.sha256, files };
}
