/**
 * `pnpm --filter @org/webinar-server generate`: writes the generated modules of the server's OpenAPI documents,
 * admin-openapi.yaml and watch-openapi.yaml (see render-document-modules.ts). The documents' tests render them
 * again and fail when the checked-in files are stale, and so does `pnpm check:drift`.
 */
import { writeFileSync } from "node:fs";
import { renderDocumentModules } from "./render-document-modules";
import { loadServerDocument, SERVER_DOCUMENTS, type DocumentName } from "./server-document";

for (const name of Object.keys(SERVER_DOCUMENTS) as DocumentName[]) {
  const document = loadServerDocument(name);
  for (const [file, text] of Object.entries(await renderDocumentModules(document))) writeFileSync(file, text);
  console.log(`generated the modules of ${document.file} ${document.sha256.slice(0, 12)}`);
}
