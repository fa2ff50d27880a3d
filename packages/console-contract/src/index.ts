/**
 * The console API's contract as its callers use it: the document's types (`paths`, `components`, `operations`,
 * openapi-typescript's), which type the server's handlers and the console app's client alike, and the limits and
 * enums of its schemas, which the app's forms check and offer. The request validators are `./validators`.
 */
export type { components, operations, paths } from "./console-openapi.gen";
export { consoleEnums, consoleLimits } from "./console-schema.gen";
