/**
 * The console's only way to the server: openapi-fetch typed with the console API's generated `paths`, and
 * openapi-react-query over it for queries and mutations. The session is the HttpOnly cookie the server sets, sent
 * because every request goes to the page's own origin (`credentials: "same-origin"`); the browser adds the
 * `Origin` header the server checks on unsafe requests.
 */
import createFetchClient from "openapi-fetch";
import createQueryClient from "openapi-react-query";
import type { components, paths } from "@org/webinar-console-contract";
import { recentPasswordRetry } from "./recent-password-retry";

/** The typed fetch client (paths in the document already start with `/console/api/`). */
export const consoleFetch = createFetchClient<paths>({ baseUrl: window.location.origin, credentials: "same-origin" });
consoleFetch.use(recentPasswordRetry);

/**
 * Queries and mutations of the console API, typed by operation path. Its query keys are `[method, path, init]`:
 * `consoleApi.queryOptions(method, path).queryKey` names every query of an operation, for an invalidation.
 */
export const consoleApi = createQueryClient(consoleFetch);

/**
 * The paging of a list operation (listAuditEvents, listRequests, listWebinars) for `consoleApi.useInfiniteQuery`:
 * the first page is asked without a cursor (openapi-fetch leaves a null parameter out), each next one with the
 * page before's `nextCursor`.
 */
export const CURSOR_PAGES = {
  initialPageParam: null,
  getNextPageParam: (page: { nextCursor?: string }) => page.nextCursor,
};

export type Schemas = components["schemas"];
export type ErrorEnvelope = Schemas["ErrorEnvelope"];
export type ConsoleErrorCode = Schemas["ConsoleErrorCode"];
export type Webinar = Schemas["Webinar"];
export type Mode = Schemas["Mode"];
export type Person = Schemas["Person"];
export type Role = Schemas["Role"];

/** The error code of a failed call (openapi-react-query throws the answer's body), if it is the envelope. */
export function errorCodeOf(error: unknown): ConsoleErrorCode | undefined {
  if (typeof error !== "object" || error === null || !("error" in error)) return undefined;
  const inner = (error as { error: unknown }).error;
  if (typeof inner !== "object" || inner === null || !("code" in inner)) return undefined;
  return (inner as { code: ConsoleErrorCode }).code;
}

/** The envelope's `details`, when the failed call answered one. */
export function errorDetailsOf(error: unknown): Record<string, unknown> | undefined {
  if (errorCodeOf(error) === undefined) return undefined;
  const details = (error as ErrorEnvelope).error.details;
  return details === undefined ? undefined : (details as Record<string, unknown>);
}

/** The requestId of a failed call, to quote to the operator. */
export function errorRequestIdOf(error: unknown): string | undefined {
  return errorCodeOf(error) === undefined ? undefined : (error as ErrorEnvelope).requestId;
}
