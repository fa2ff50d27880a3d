/**
 * Reads an answer body as the API's envelope (each operation's response schema and `ErrorEnvelope`): `{ requestId,
 * data }` on success, `{ requestId, error: { code, message, details? } }` otherwise. Anything else (a gateway's HTML
 * page, an empty or truncated body, JSON of another shape) is `malformed`, so it can never pass for data or for an API
 * error.
 */

/** An answer body, classified. */
export type Envelope =
  | { kind: "success"; requestId: string; data: Record<string, unknown> }
  | { kind: "error"; requestId: string; code: string; message: string; details: Record<string, unknown> | undefined }
  | { kind: "malformed"; problem: string; requestId: string | undefined };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * Classifies an answer body by its HTTP status and shape.
 *
 * @example
 * readEnvelope(409, '{"requestId":"req_1","error":{"code":"VIEWER_IDENTITY_CONFLICT","message":"phone in use"}}');
 * // { kind: "error", requestId: "req_1", code: "VIEWER_IDENTITY_CONFLICT", message: "phone in use",
 * //   details: undefined }
 */
export function readEnvelope(status: number, body: string): Envelope {
  if (body.trim() === "") return { kind: "malformed", problem: "the body is empty", requestId: undefined };
  const json = parseJson(body);
  if (!isPlainObject(json))
    return {
      kind: "malformed",
      problem: json === undefined ? "the body is not JSON" : "the body is not a JSON object",
      requestId: undefined,
    };
  const requestId = typeof json.requestId === "string" && json.requestId !== "" ? json.requestId : undefined;
  if (requestId === undefined) return { kind: "malformed", problem: "the body has no requestId", requestId };
  if (status >= 200 && status < 300) {
    return isPlainObject(json.data)
      ? { kind: "success", requestId, data: json.data }
      : { kind: "malformed", problem: "the success envelope has no data object", requestId };
  }
  const error = json.error;
  if (!isPlainObject(error) || typeof error.code !== "string" || typeof error.message !== "string") {
    return { kind: "malformed", problem: "the error envelope has no error.code and error.message", requestId };
  }
  if (error.details !== undefined && !isPlainObject(error.details)) {
    return { kind: "malformed", problem: "error.details is not an object", requestId };
  }
  return { kind: "error", requestId, code: error.code, message: error.message, details: error.details };
}
