/**
 * `pnpm --filter @org/webinar-server generate`: writes the generated modules of the server's OpenAPI documents,
 * admin-openapi.yaml and watch-openapi.yaml (see @org/webinar-build/api-documents), and this package's copy of
 * the console API's document (server-document.ts). The documents' tests render them again and fail when the
 * checked-in files are stale, and so does `pnpm check:drift`.
 */
import { writeFileSync } from "node:fs";
import {
  CONSOLE_DOCUMENT_COPY,
  type GeneratedHere,
  loadServerDocument,
  renderConsoleDocumentCopy,
  renderServerModules,
} from "./server-document";

for (const name of ["admin", "watch"] as const satisfies GeneratedHere[]) {
  const document = loadServerDocument(name);
  const modules = await renderServerModules({ ...document, name });
  for (const [file, text] of Object.entries(modules)) writeFileSync(file, text);
  console.log(`generated the modules of ${document.file} ${document.sha256.slice(0, 12)}`);
}
writeFileSync(CONSOLE_DOCUMENT_COPY, renderConsoleDocumentCopy());
console.log("copied console-openapi.yaml from @org/webinar-console-contract");
