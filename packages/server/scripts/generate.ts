/**
 * `pnpm --filter @org/webinar-server generate`: writes the generated modules of the watch page API's document,
 * watch-openapi.yaml (see @org/webinar-build/api-documents), and this package's copies of the admin and console
 * APIs' documents (server-document.ts). The documents' tests render them again and fail when the checked-in
 * files are stale, and so does `pnpm check:drift`.
 */
import { writeFileSync } from "node:fs";
import { DOCUMENT_COPIES, loadServerDocument, renderDocumentCopy, renderWatchModules } from "./server-document";

const watch = loadServerDocument("watch");
for (const [file, text] of Object.entries(await renderWatchModules(watch))) writeFileSync(file, text);
console.log(`generated the modules of ${watch.file} ${watch.sha256.slice(0, 12)}`);
for (const name of ["admin", "console"] as const) {
  writeFileSync(DOCUMENT_COPIES[name].copy, renderDocumentCopy(name));
  console.log(`copied ${name}-openapi.yaml from ${DOCUMENT_COPIES[name].source}`);
}
