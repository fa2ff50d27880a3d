/**
 * One call of a typed method (upsertViewer, issueLoginTicket, ...): the attempts of send-call.ts through the
 * client's `client.raw.POST`, then the answer as the method's result or its typed error.
 */
import {
  operations,
  type OperationErrorCode,
  type OperationId,
  type RequestBody,
  type ResponseData,
} from "@org/webinar-types";
import type { FetchLike } from "./attempt";
import { checkTimeoutMs, type CallDefaults } from "./client-options";
import { WebinarApiError, WebinarResponseError } from "./errors";
import { resolveRetryPolicy, type RetryOptions } from "./retry-policy";
import { sendCall, type CallRuntime, type FinalAnswer, type PostResult } from "./send-call";
import { withRequestId, type WithRequestId } from "./with-request-id";

/** Per-call settings; each overrides the client's for this call only. */
export interface CallOptions {
  /** Aborts the call, waits included; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Limit of one attempt in milliseconds. */
  timeoutMs?: number;
  /** Retry settings for this call, or `false` for a single attempt. */
  retry?: RetryOptions | false;
}

/** The init of one attempt's `client.raw.POST`: the body, read back as text, the attempt's signal and `fetch`. */
export type PostInit<Op extends OperationId> = {
  body: RequestBody<Op>;
  parseAs: "text";
  signal: AbortSignal;
  fetch: FetchLike;
};

function resultOf<Op extends OperationId>(operationId: Op, answer: FinalAnswer): WithRequestId<ResponseData<Op>> {
  const { envelope, status, headers, attempts } = answer;
  if (envelope.kind === "success") return withRequestId(envelope.data as ResponseData<Op>, envelope.requestId);
  if (envelope.kind === "error") {
    throw new WebinarApiError({
      operationId,
      status,
      code: envelope.code as OperationErrorCode<Op>,
      message: envelope.message,
      requestId: envelope.requestId,
      details: envelope.details,
      headers,
      attempts,
    });
  }
  throw new WebinarResponseError(
    `HTTP ${status}: ${envelope.problem}, not the API's JSON envelope (content-type ${headers.get("content-type") ?? "none"})`,
    {
      status,
      body: answer.body,
      headers,
      requestId: envelope.requestId,
      attempts,
    },
  );
}

/** Calls one operation: `post` is its `client.raw.POST`, run once per attempt. */
export type OperationCall = <Op extends OperationId>(
  operationId: Op,
  post: (init: PostInit<Op>) => Promise<PostResult>,
  body: RequestBody<Op>,
  options?: CallOptions,
) => Promise<WithRequestId<ResponseData<Op>>>;

/**
 * The calls of one client. `basePath` is the base URL's path (openapi-fetch drops its trailing slash), so log entries
 * name the path each operation is sent to.
 */
export function createOperationCall(runtime: CallRuntime, defaults: CallDefaults, basePath: string): OperationCall {
  return async (operationId, post, body, options = {}) => {
    const answer = await sendCall(
      runtime,
      {
        operationId,
        path: basePath + operations[operationId].path,
        retry: options.retry === undefined ? defaults.retry : resolveRetryPolicy(options.retry, defaults.retry),
        timeoutMs: options.timeoutMs === undefined ? defaults.timeoutMs : checkTimeoutMs(options.timeoutMs),
        signal: options.signal,
      },
      (signal, fetch) => post({ body, parseAs: "text", signal, fetch }),
    );
    return resultOf(operationId, answer);
  };
}
