/**
 * The admin API's contract as its callers use it: the document's types (`paths`, `components`, `operations`,
 * openapi-typescript's), which type the server's handlers and the tests' admin client alike. The request
 * validators are `./validators`.
 */
export type { components, operations, paths } from "./admin-openapi.gen";
