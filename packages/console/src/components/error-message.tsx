/** A failed call in words: the message of its error code in the chosen language, and its requestId to quote. */
import { type ConsoleErrorCode, errorCodeOf, errorDetailsOf, errorRequestIdOf } from "../api/console-api";
import type { MessageKey } from "../i18n/catalogue";
import { useIntl } from "react-intl";

// Typed by the generated error codes: a code added to the console API's document fails the build until it has words.
const MESSAGES: Record<ConsoleErrorCode, MessageKey> = {
  REQUEST_INVALID: "error.REQUEST_INVALID",
  CONSOLE_UNAUTHORIZED: "error.CONSOLE_UNAUTHORIZED",
  CONSOLE_SIGN_IN_FAILED: "error.CONSOLE_SIGN_IN_FAILED",
  CONSOLE_SIGN_IN_THROTTLED: "error.CONSOLE_SIGN_IN_THROTTLED",
  CONSOLE_INVITE_INVALID: "error.CONSOLE_INVITE_INVALID",
  CONSOLE_FORBIDDEN: "error.CONSOLE_FORBIDDEN",
  ORIGIN_FORBIDDEN: "error.ORIGIN_FORBIDDEN",
  API_KEY_NOT_FOUND: "error.API_KEY_NOT_FOUND",
  API_KEY_REVOKED: "error.API_KEY_REVOKED",
  WEBINAR_NOT_FOUND: "error.WEBINAR_NOT_FOUND",
  TICKET_CODE_TAKEN: "error.TICKET_CODE_TAKEN",
  LIVE_TRANSITION_INVALID: "error.LIVE_TRANSITION_INVALID",
  LIVE_NOT_ENDED: "error.LIVE_NOT_ENDED",
  WATCH_REQUEST_INVALID: "error.WATCH_REQUEST_INVALID",
  WATCH_DATA_NOT_FINAL: "error.WATCH_DATA_NOT_FINAL",
  WATCH_DATA_UNAVAILABLE: "error.WATCH_DATA_UNAVAILABLE",
  STORAGE_UNAVAILABLE: "error.STORAGE_UNAVAILABLE",
  INTERNAL_ERROR: "error.INTERNAL_ERROR",
  CONSOLE_SECOND_FACTOR_REQUIRED: "error.CONSOLE_SECOND_FACTOR_REQUIRED",
  CONSOLE_BUSY: "error.CONSOLE_BUSY",
  CONSOLE_PASSWORD_TOO_COMMON: "error.CONSOLE_PASSWORD_TOO_COMMON",
  CONSOLE_REAUTHENTICATION_REQUIRED: "error.CONSOLE_REAUTHENTICATION_REQUIRED",
  CONSOLE_TWO_FACTOR_ENROLLMENT_REQUIRED: "error.CONSOLE_TWO_FACTOR_ENROLLMENT_REQUIRED",
  CONSOLE_TWO_FACTOR_CODE_INVALID: "error.CONSOLE_TWO_FACTOR_CODE_INVALID",
  CONSOLE_TWO_FACTOR_NOT_STARTED: "error.CONSOLE_TWO_FACTOR_NOT_STARTED",
  CONSOLE_TWO_FACTOR_NOT_ENABLED: "error.CONSOLE_TWO_FACTOR_NOT_ENABLED",
  CONSOLE_TWO_FACTOR_MANDATORY: "error.CONSOLE_TWO_FACTOR_MANDATORY",
  CONSOLE_EMAIL_TAKEN: "error.CONSOLE_EMAIL_TAKEN",
  CONSOLE_LAST_OWNER: "error.CONSOLE_LAST_OWNER",
  CONSOLE_PERSON_NOT_FOUND: "error.CONSOLE_PERSON_NOT_FOUND",
  CONSOLE_PERSON_ACTIVE: "error.CONSOLE_PERSON_ACTIVE",
  CONSOLE_SESSION_NOT_FOUND: "error.CONSOLE_SESSION_NOT_FOUND",
  TENANT_SUSPENDED: "error.TENANT_SUSPENDED",
};

/** What went wrong, as text; the server's own words are added for REQUEST_INVALID (they name the field). */
export function useErrorText(): (error: unknown) => string {
  const { formatMessage } = useIntl();
  return (error) => {
    const code = errorCodeOf(error);
    if (code === undefined) return formatMessage({ id: "error.network" });
    const words = formatMessage({ id: MESSAGES[code] }, { minutes: retryAfterMinutes(error) });
    const details = code === "REQUEST_INVALID" ? fieldErrors(error) : "";
    return details === "" ? words : `${words} ${details}`;
  };
}

function retryAfterMinutes(error: unknown): number {
  const seconds = errorDetailsOf(error)?.retryAfterSeconds;
  return typeof seconds === "number" ? Math.max(1, Math.ceil(seconds / 60)) : 15;
}

function fieldErrors(error: unknown): string {
  const errors = errorDetailsOf(error)?.errors;
  if (!Array.isArray(errors)) return "";
  return errors
    .map(
      (item: { pointer?: unknown; message?: unknown }) => `${String(item.pointer ?? "")} ${String(item.message ?? "")}`,
    )
    .join("; ");
}

/** An alert saying what went wrong, with the requestId the operator can look up. */
export function ErrorMessage({ error }: { error: unknown }) {
  const { formatMessage } = useIntl();
  const text = useErrorText()(error);
  const requestId = errorRequestIdOf(error);
  return (
    <p role="alert" className="error">
      {text}
      {requestId === undefined ? null : (
        <span className="request-id"> {formatMessage({ id: "error.requestId" }, { requestId })}</span>
      )}
    </p>
  );
}
