/**
 * `@org/webinar-validator/contract`: response validation for contract tests. A separate entry point because its
 * precompiled response validators are four fifths of the generated code, which a server verifying requests
 * never needs to load.
 *
 * @example
 * import { validateResponse } from "@org/webinar-validator/contract";
 *
 * expect(validateResponse("upsertViewer", response.status, await response.json())).toEqual({ valid: true });
 */
export { validateResponse } from "./validate-response";
export type { ResponseValidation } from "./validate-response";
