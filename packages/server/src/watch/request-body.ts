/**
 * The request bodies of the watch page's API, read (at most 64 KiB), parsed as JSON and checked against
 * watch-openapi.yaml's schemas by the validators generated from it (watch-validators.gen.js); the value
 * returned has the type the document gives it (watch-openapi.gen.ts).
 */
import type { Context } from "hono";
import type { ValidationIssue } from "@org/webinar-validator";
import type { ServiceError } from "../errors";
import { bodyChecker, invalidBody } from "../http/body-check";
import type { AppEnv } from "../http/app-env";
import { parseJsonBody } from "../http/json-body";
import { readBodyText, SMALL_BODY_BYTES } from "../http/read-body";
import { requestHeader } from "../http/request-header";
import type { operations } from "./watch-openapi.gen";
import { watchBodyValidators, watchPatternMessages } from "./watch-validators.gen.js";

/** An operation of watch-openapi.yaml with a request body. */
export type WatchBodyOperationId = keyof typeof watchBodyValidators;

/** The request body of an operation, as its schema describes it. */
export type WatchBody<Id extends WatchBodyOperationId> = NonNullable<
  operations[Id]["requestBody"]
>["content"]["application/json"];

const checkWatchBody = bodyChecker({ validators: watchBodyValidators, patternMessages: watchPatternMessages });

/**
 * The body of the request of `c` for `operationId`. A body its schema refuses is thrown as `refuse(issues)`: 400
 * REQUEST_INVALID with `details.errors`, unless the operation answers otherwise.
 *
 * @example
 * const { playbackId, playing } = await readWatchBody(c, "sendHeartbeat");
 */
export async function readWatchBody<Id extends WatchBodyOperationId>(
  c: Context<AppEnv>,
  operationId: Id,
  refuse: (issues: ValidationIssue[]) => ServiceError = invalidBody,
): Promise<WatchBody<Id>> {
  // The request's operation for its observation (metrics, access log), known before anything can fail.
  c.set("operationId", operationId);
  const text = await readBodyText(c, SMALL_BODY_BYTES);
  const body = parseJsonBody(text, requestHeader(c, "content-type"));
  const issues = checkWatchBody(operationId, body);
  if (issues.length > 0) throw refuse(issues);
  return body as WatchBody<Id>;
}
