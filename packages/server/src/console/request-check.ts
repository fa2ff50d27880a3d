/**
 * The checks of a console request before its operation runs, each from the document: the Origin of an unsafe
 * request, the query parameters and the body against the operation's generated validators.
 */
import type { Context } from "hono";
import { ServiceError } from "../errors";
import { bodyChecker, invalidBody } from "../http/body-check";
import { parseJsonBody } from "../http/json-body";
import type { AppEnv } from "../http/app-env";
import { requestHeader } from "../http/request-header";
import {
  consoleBodyValidators,
  consolePatternMessages,
  consoleQueryValidators,
} from "@org/webinar-console-contract/validators";
import type { ConsoleOperationId } from "./operations";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * 403 ORIGIN_FORBIDDEN for an unsafe request whose `Origin` is missing or is not the server's own: the configured
 * public origin, or the origin the request itself was addressed to. With SameSite=Strict cookies this closes
 * cross-site request forgery twice over.
 */
export function checkOrigin(c: Context<AppEnv>, publicOrigin: string | undefined): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  const origin = requestHeader(c, "origin");
  if (origin !== undefined && (origin === publicOrigin || origin === new URL(c.req.url).origin)) return;
  throw new ServiceError("ORIGIN_FORBIDDEN", "the console accepts changes only from its own pages (Origin)");
}

const checkBody = bodyChecker({ validators: consoleBodyValidators, patternMessages: consolePatternMessages });
const checkQuery = bodyChecker({ validators: consoleQueryValidators, patternMessages: consolePatternMessages });

/** The query as one object of strings, checked against the operation's query parameters. */
export function checkedQuery(c: Context<AppEnv>, operationId: ConsoleOperationId): Record<string, string> {
  const query: Record<string, string> = {};
  const repeated: string[] = [];
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (values.length > 1) repeated.push(name);
    query[name] = values[0] ?? "";
  }
  if (repeated.length > 0)
    throw invalidBody(repeated.map((name) => ({ pointer: `/${name}`, rule: "query", message: "must be given once" })));
  if (!(operationId in consoleQueryValidators)) {
    const unknown = Object.keys(query);
    if (unknown.length === 0) return query;
    throw invalidBody(
      unknown.map((name) => ({ pointer: `/${name}`, rule: "additionalProperties", message: "is not a parameter" })),
    );
  }
  const issues = checkQuery(operationId as keyof typeof consoleQueryValidators, query);
  if (issues.length > 0) throw new ServiceError("REQUEST_INVALID", "query parameters are invalid", { errors: issues });
  return query;
}

/** The body (an empty body is `{}`), checked against the operation's schema; `{}` for an operation without one. */
export function checkedBody(operationId: ConsoleOperationId, text: string, contentType: string | undefined): unknown {
  const body = text.trim() === "" ? {} : parseJsonBody(text, contentType);
  if (!(operationId in consoleBodyValidators)) {
    if (text.trim() === "") return body;
    throw invalidBody([{ pointer: "", rule: "body", message: "this operation takes no body" }]);
  }
  const issues = checkBody(operationId as keyof typeof consoleBodyValidators, body);
  if (issues.length > 0) throw invalidBody(issues);
  return body;
}
