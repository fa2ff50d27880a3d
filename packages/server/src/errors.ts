/**
 * One error type for every failure the server answers on purpose, one table from code to HTTP status, and the
 * ErrorEnvelope (`{requestId, error: {code, message, details?}}`) used by the Open API, the admin API
 * and the watch page alike. The Open API's codes and statuses come from the spec's error catalog; the few
 * codes of the admin API and the watch page are listed beside them, so an unmapped code fails the build.
 */
import { errorCatalog, type ErrorCode } from "@org/webinar-types";

/**
 * Codes of the admin API, the watch page and the merchant console (admin-openapi.yaml, watch-openapi.yaml,
 * console-openapi.yaml), which the spec does not know.
 */
const serverOnlyStatus = {
  /** Admin request without the right bearer token, or the admin API is disabled (no token configured). */
  ADMIN_UNAUTHORIZED: 401,
  /** POST /w/api/session with a ticket that is unknown, consumed, expired, superseded or for another webinar. */
  LOGIN_TICKET_INVALID: 401,
  MERCHANT_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  /** No admin route at this path (the Open API paths answer 404 REQUEST_INVALID, as the spec says). */
  ROUTE_NOT_FOUND: 404,
  TICKET_CODE_TAKEN: 409,
  LIVE_TRANSITION_INVALID: 409,
  LIVE_NOT_ENDED: 409,
  /** Admin import of a LIVE playback session after the webinar's live data became FINAL. */
  LIVE_DATA_FINAL: 409,
  /** Watch-page playback API: no watch session and no anonymous subject. */
  PLAYBACK_UNAUTHORIZED: 401,
  /** Watch-page playback API: no such playback session of this viewer. */
  PLAYBACK_NOT_FOUND: 404,
  /** Watch-page playback API: LIVE while the webinar is not live, REPLAY while no replay is available. */
  PLAYBACK_NOT_AVAILABLE: 409,
  /** Console API without a valid session cookie. */
  CONSOLE_UNAUTHORIZED: 401,
  /** Console sign-in with a wrong password or an unknown email (the same answer for both). */
  CONSOLE_SIGN_IN_FAILED: 401,
  /** Console sign-in after too many failures for the email or from the address; answered with Retry-After. */
  CONSOLE_SIGN_IN_THROTTLED: 429,
  /** Console invite token that is unknown, used or expired. */
  CONSOLE_INVITE_INVALID: 401,
  /** A console change by a person whose role reads only (ANALYST). */
  CONSOLE_FORBIDDEN: 403,
  /** An invite of an email that belongs to a console person of another merchant (or, in the console, of this one). */
  CONSOLE_EMAIL_TAKEN: 409,
  /** Console sign-in with the right password of a person with two-step sign-in, without a code. */
  CONSOLE_SECOND_FACTOR_REQUIRED: 401,
  /** A console change that hands out access, longer after the last password entry than the console allows. */
  CONSOLE_REAUTHENTICATION_REQUIRED: 403,
  /** A console request of a person who must turn on two-step sign-in first (the merchant requires it). */
  CONSOLE_TWO_FACTOR_ENROLLMENT_REQUIRED: 403,
  /** A two-step enrollment confirmed with a code that is not the authenticator's current one. */
  CONSOLE_TWO_FACTOR_CODE_INVALID: 400,
  /** A two-step enrollment confirmed before it was started. */
  CONSOLE_TWO_FACTOR_NOT_STARTED: 409,
  /** What needs two-step sign-in on (recovery codes, requiring it of everyone) by a person without it. */
  CONSOLE_TWO_FACTOR_NOT_ENABLED: 409,
  /** Turning two-step sign-in off while the merchant requires it. */
  CONSOLE_TWO_FACTOR_MANDATORY: 409,
  /** A new console password that is common or easy to guess. */
  CONSOLE_PASSWORD_TOO_COMMON: 400,
  /** A change that would leave the merchant without an active OWNER. */
  CONSOLE_LAST_OWNER: 409,
  /** No such person in the merchant (or one who was removed). */
  CONSOLE_PERSON_NOT_FOUND: 404,
  /** A new invite link for a person who has accepted theirs. */
  CONSOLE_PERSON_ACTIVE: 409,
  /** No such session of the signed-in person. */
  CONSOLE_SESSION_NOT_FOUND: 404,
  /** The console runs as much of this work at once as it allows (password checks, exports, charts); answered with Retry-After. */
  CONSOLE_BUSY: 429,
  /** Console roll of an API key that is already revoked. */
  API_KEY_REVOKED: 409,
  /** The admin API's storage is unavailable. */
  STORAGE_UNAVAILABLE: 503,
} as const;

/** Every code this server can answer with. */
export type ServerErrorCode = ErrorCode | keyof typeof serverOnlyStatus;

function catalogStatuses(): Record<ErrorCode, number> {
  const statuses = {} as Record<ErrorCode, number>;
  for (const [code, entry] of Object.entries(errorCatalog) as [ErrorCode, { status: number }][])
    statuses[code] = entry.status;
  return statuses;
}

/** The HTTP status of each code: the spec's catalog for Open API codes, plus the server's own. */
export const errorStatus: Readonly<Record<ServerErrorCode, number>> = { ...catalogStatuses(), ...serverOnlyStatus };

/**
 * A failure answered with its code. `status` overrides the table only where the spec itself says so (404 and
 * 405 with `REQUEST_INVALID` for unknown paths and methods).
 *
 * @example
 * throw new ServiceError("VIEWER_NOT_FOUND", "no viewer with this uid in this merchant");
 */
export class ServiceError extends Error {
  override readonly name = "ServiceError";
  readonly status: number;
  constructor(
    readonly code: ServerErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    status?: number,
  ) {
    super(message);
    this.status = status ?? errorStatus[code];
  }
}
