/**
 * The server's API documents: the admin API's and the watch page API's, kept in this package (their modules are
 * generated into src/admin/ and src/watch/), and the console API's, which is @org/webinar-console-contract's (its
 * modules are generated there). This package carries a copy of the console's document, `console-openapi.yaml`,
 * so that every document of the server's APIs is in its folder and its tarball; the copy says where it comes from.
 * Read by the generator (generate.ts) and the documents' tests.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import {
  type ApiDocument,
  createDocumentAjv,
  loadApiDocument,
  type ModuleTarget,
  type RenderedModules,
  renderDocumentModules,
} from "@org/webinar-build/api-documents";

const inThisPackage = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** Each document's name (the prefix of its generated exports) and file. */
export const SERVER_DOCUMENTS = {
  admin: { name: "admin", path: inThisPackage("admin-openapi.yaml") },
  watch: { name: "watch", path: inThisPackage("watch-openapi.yaml") },
  console: {
    name: "console",
    path: createRequire(import.meta.url).resolve("@org/webinar-console-contract/console-openapi.yaml"),
  },
} as const;

export type DocumentName = keyof typeof SERVER_DOCUMENTS;

/** The documents whose modules this package generates, and the folder of each. */
const GENERATED_HERE = { admin: "src/admin", watch: "src/watch" } as const;

export type GeneratedHere = keyof typeof GENERATED_HERE;

/** Reads and parses one of the server's documents. */
export function loadServerDocument(name: DocumentName): ApiDocument {
  return loadApiDocument(SERVER_DOCUMENTS[name]);
}

/** The generated modules of the admin or watch page document, by absolute path, without writing them. */
export function renderServerModules(document: ApiDocument & { name: GeneratedHere }): Promise<RenderedModules> {
  const target: ModuleTarget = {
    folder: inThisPackage(GENERATED_HERE[document.name]),
    generator: "packages/server/scripts/generate.ts",
    source: `packages/server/${document.file}`,
    command: "pnpm --filter @org/webinar-server generate",
  };
  return renderDocumentModules(document, target);
}

/** Where this package's copy of the console API's document is. */
export const CONSOLE_DOCUMENT_COPY = inThisPackage("console-openapi.yaml");

/** This package's copy of the console API's document: the contract's text under a banner that says so. */
export function renderConsoleDocumentCopy(): string {
  const banner =
    "# A copy of packages/console-contract/console-openapi.yaml, the console API's document, written by\n" +
    "# packages/server/scripts/generate.ts. Do not edit: change that file and run `pnpm generate`.\n";
  return banner + readFileSync(SERVER_DOCUMENTS.console.path, "utf8");
}

export { createDocumentAjv };
