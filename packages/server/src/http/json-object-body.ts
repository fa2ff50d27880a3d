/** Parses the small JSON bodies of the watch page's API: one JSON object with only the allowed keys, else 400. */
import { ServiceError } from "../errors";

function invalid(message: string): ServiceError {
  return new ServiceError("REQUEST_INVALID", message);
}

/**
 * @example
 * const body = parseJsonObjectBody('{"playbackId":"p1"}', ["playbackId", "playing"]); // { playbackId: "p1" }
 */
export function parseJsonObjectBody(text: string, allowed: readonly string[]): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid("the body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid("the body must be a JSON object");
  for (const key of Object.keys(body)) if (!allowed.includes(key)) throw invalid(`unknown field ${key.slice(0, 64)}`);
  return body as Record<string, unknown>;
}
