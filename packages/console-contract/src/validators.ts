/**
 * The console API's request validators, precompiled from console-openapi.yaml (ajv standalone: nothing is
 * compiled when the server runs), with each operation's method, path and whether it needs a body, and the words
 * of each pattern. The server checks every console request with them.
 */
export type { BodyValidator } from "./console-validators.gen.js";
export {
  consoleBodyValidators,
  consoleDocumentSha256,
  consoleOperations,
  consolePatternMessages,
  consoleQueryValidators,
} from "./console-validators.gen.js";
