/**
 * The server's own API documents (admin, watch page, console) as their generators and tests read them, and the
 * modules generated from them: operation tables, precompiled request validators and openapi-typescript's types.
 */
export { createDocumentAjv, loadApiDocument, readApiDocument } from "./read-document";
export type { ApiDocument, DocumentOperation, DocumentSource, JsonObject } from "./read-document";
export { generatedFiles, renderDocumentModules } from "./render-modules";
export type { ModuleTarget, RenderedModules } from "./render-modules";
