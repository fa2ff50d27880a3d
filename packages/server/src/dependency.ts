/**
 * Maps the unavailability of a dependency to the 503 code of the step that needed it, so each operation answers
 * with the code the spec names for it (AUTH_DEPENDENCY_UNAVAILABLE for viewer and ticket storage,
 * PUBLIC_METADATA_UNAVAILABLE for webinar metadata, VIEWER_DOMAIN_UNAVAILABLE for the watch domain, ...). An
 * integrity violation from a concurrent change counts as unavailability too: the same request may succeed when
 * retried. Other errors pass through (a value the database refused is answered 400 by http/respond.ts; a bug
 * stays a 500, never a misleading 503).
 */
import { isConcurrentConflict, isDatabaseUnavailable } from "./db/errors";
import { ServiceError, type ServerErrorCode } from "./errors";

/** Thrown by a lookup whose backing service cannot answer (for lookups that are not plain database queries). */
export class DependencyUnavailableError extends Error {
  override readonly name = "DependencyUnavailableError";
}

/** Whether an error means "the dependency cannot serve this now" rather than "the code is wrong". */
export function isUnavailable(error: unknown): boolean {
  return error instanceof DependencyUnavailableError || isDatabaseUnavailable(error) || isConcurrentConflict(error);
}

/**
 * Runs one step; its dependency being unavailable becomes `ServiceError(code)`.
 *
 * @example
 * const unavailable = "webinar metadata is temporarily unavailable";
 * const webinar = await dependencyStep("PUBLIC_METADATA_UNAVAILABLE", unavailable, () => lookup());
 */
export async function dependencyStep<T>(code: ServerErrorCode, message: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ServiceError || !isUnavailable(error)) throw error;
    const unavailable = new ServiceError(code, message);
    (unavailable as { cause?: unknown }).cause = error;
    throw unavailable;
  }
}
