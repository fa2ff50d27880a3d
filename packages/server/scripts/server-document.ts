/**
 * The server's API documents: the watch page API's, kept in this package (its modules are generated into
 * src/watch/), and the admin and console APIs', which are @org/webinar-admin-contract's and
 * @org/webinar-console-contract's (their modules are generated there). This package carries a copy of each
 * contract's document (`admin-openapi.yaml`, `console-openapi.yaml`), so that every document of the server's APIs
 * is in its folder and its tarball; each copy says where it comes from. Read by the generator (generate.ts) and
 * the documents' tests.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import {
  type ApiDocument,
  createDocumentAjv,
  loadApiDocument,
  type RenderedModules,
  renderDocumentModules,
} from "@org/webinar-build/api-documents";

const inThisPackage = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const contractFile = (specifier: string) => createRequire(import.meta.url).resolve(specifier);

/** Each document's name (the prefix of its generated exports) and file. */
export const SERVER_DOCUMENTS = {
  admin: { name: "admin", path: contractFile("@org/webinar-admin-contract/admin-openapi.yaml") },
  watch: { name: "watch", path: inThisPackage("watch-openapi.yaml") },
  console: { name: "console", path: contractFile("@org/webinar-console-contract/console-openapi.yaml") },
} as const;

export type DocumentName = keyof typeof SERVER_DOCUMENTS;

/** The documents of the contract packages, of which this package keeps a copy: where each copy is, and its source. */
export const DOCUMENT_COPIES = {
  admin: { copy: inThisPackage("admin-openapi.yaml"), source: "packages/admin-contract/admin-openapi.yaml" },
  console: { copy: inThisPackage("console-openapi.yaml"), source: "packages/console-contract/console-openapi.yaml" },
} as const;

/** Reads and parses one of the server's documents. */
export function loadServerDocument(name: DocumentName): ApiDocument {
  return loadApiDocument(SERVER_DOCUMENTS[name]);
}

/** The generated modules of the watch page document, by absolute path, without writing them. */
export function renderWatchModules(document: ApiDocument): Promise<RenderedModules> {
  return renderDocumentModules(document, {
    folder: inThisPackage("src/watch"),
    generator: "packages/server/scripts/generate.ts",
    source: `packages/server/${document.file}`,
    command: "pnpm --filter @org/webinar-server generate",
  });
}

/** This package's copy of a contract's document: the contract's text under a banner that says so. */
export function renderDocumentCopy(name: keyof typeof DOCUMENT_COPIES): string {
  const banner =
    `# A copy of ${DOCUMENT_COPIES[name].source}, the ${name} API's document, written by\n` +
    "# packages/server/scripts/generate.ts. Do not edit: change that file and run `pnpm generate`.\n";
  return banner + readFileSync(SERVER_DOCUMENTS[name].path, "utf8");
}

export { createDocumentAjv };
