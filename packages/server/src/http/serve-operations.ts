/**
 * The one way a surface serves an OpenAPI document (the admin, console and watch APIs): every operation of the
 * document's generated operation table is routed by its method and path, with the operation id set for the
 * request's observation (access log, metrics) before anything can fail; another method on an operation's path is
 * refused 405 and any other path under the surface's prefix 404. How each surface checks the caller first (the
 * admin token, the console's Origin) is its `refuse` callback, so an unauthorized caller learns nothing about
 * the paths. Validation and the answer's shape stay typed per operation in the surface (typed-answer.ts).
 */
import type { Context, Hono } from "hono";
import { ServiceError } from "../errors";
import type { AppEnv } from "./app-env";

/** An operation table generated from a document: operation id -> method and path template. */
export type OperationTable<Id extends string> = {
  readonly [K in Id]: { readonly method: string; readonly path: string };
};

/** What `serveOperations` needs of a surface. */
export interface ServedDocument<Id extends string> {
  operations: OperationTable<Id>;
  /** Answers one operation; the request's operation id is already set. */
  answer(c: Context<AppEnv>, operationId: Id): Promise<Response>;
  /** Paths under this prefix that are no operation of the document are refused 404 (e.g. `/admin/`). */
  prefix: string;
  /** The noun of the 404's message: "no <noun> operation at this path". */
  noun: string;
  /** Runs before a refusal (the surface's own checks of the caller); may throw its own refusal instead. */
  beforeRefusal?: (c: Context<AppEnv>) => void;
}

/** Hono path of a document path: `/admin/v1/merchants/{merchantId}` -> `/admin/v1/merchants/:merchantId`. */
export function honoPath(path: string): string {
  return path.replace(/\{([A-Za-z]+)\}/g, ":$1");
}

/** Registers the document's operations and its 405 and 404 refusals on `app`; see the module comment. */
export function serveOperations<Id extends string>(app: Hono<AppEnv>, served: ServedDocument<Id>): void {
  const routes = (Object.keys(served.operations) as Id[]).map((operationId) => ({
    operationId,
    method: served.operations[operationId].method,
    path: honoPath(served.operations[operationId].path),
  }));
  for (const { operationId, method, path } of routes) {
    app.on(method, path, (c) => {
      c.set("operationId", operationId);
      return served.answer(c, operationId);
    });
  }
  const refuse = (status: 404 | 405) => (c: Context<AppEnv>) => {
    served.beforeRefusal?.(c);
    const message = status === 404 ? `no ${served.noun} operation at this path` : "method not allowed";
    throw new ServiceError("REQUEST_INVALID", message, undefined, status);
  };
  for (const path of new Set(routes.map((route) => route.path))) app.all(path, refuse(405));
  app.all(`${served.prefix}*`, refuse(404));
}
