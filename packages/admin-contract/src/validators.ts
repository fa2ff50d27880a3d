/**
 * The admin API's request validators, precompiled from admin-openapi.yaml (ajv standalone: nothing is compiled
 * when the server runs), with each operation's method, path and whether it needs a body, and the words of each
 * pattern. The server checks every admin request with them.
 */
export type { BodyValidator } from "./admin-validators.gen.js";
export {
  adminBodyValidators,
  adminDocumentSha256,
  adminOperations,
  adminPatternMessages,
  adminQueryValidators,
} from "./admin-validators.gen.js";
