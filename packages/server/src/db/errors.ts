/**
 * Classifies database errors: a unique violation of a named constraint (mapped to a business answer by the code
 * that expects it), the database being unavailable or a conflicting concurrent change (mapped to the operation's
 * 503 code: retry later), a value the database cannot store (400 REQUEST_INVALID), or anything else (a bug: 500).
 */

interface DatabaseErrorLike {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

function sqlState(error: unknown): string | undefined {
  const code = (error as DatabaseErrorLike | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Whether `error` is a unique violation (SQLSTATE 23505), of `constraint` when given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (sqlState(error) !== "23505") return false;
  if (constraint === undefined) return true;
  const named = (error as DatabaseErrorLike).constraint;
  if (typeof named === "string") return named === constraint;
  return (
    typeof (error as DatabaseErrorLike).message === "string" &&
    ((error as DatabaseErrorLike).message as string).includes(`"${constraint}"`)
  );
}

// SQLSTATE classes meaning "the database cannot serve right now", not "this query is wrong":
// 08 connection exception, 53 insufficient resources, 57 operator intervention (shutdown, statement timeout),
// 58 system error, 40 transaction rollback (serialization failure, deadlock), 25 in failed/read-only transaction.
const UNAVAILABLE_CLASSES = new Set(["08", "53", "57", "58", "40", "25"]);

// Integrity violations that only a concurrent change can cause once the request's own values were checked:
// unique (23505), foreign key (23503) and exclusion (23P01) violations the operation did not expect.
const CONFLICT_STATES = new Set(["23505", "23503", "23P01"]);

/** Whether `error` is an integrity violation caused by a concurrent change (a retry may succeed). */
export function isConcurrentConflict(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && CONFLICT_STATES.has(state);
}

/**
 * Whether the database refused a value of the request: a data exception (class 22: a NUL character in text, a
 * number out of the column's range, text that is not a number) or a NOT NULL / CHECK violation. Retrying the
 * same request cannot succeed; it is the request that is invalid.
 */
export function isRejectedValue(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && (state.startsWith("22") || state === "23502" || state === "23514");
}

/**
 * Whether `error` means the database is unreachable or not serving: connection refused or reset, pool connect
 * timeout, query timeout, server shutdown, too many connections. Errors without a SQLSTATE come from the
 * driver's transport. A SQL error of the query itself (syntax, missing column) is not unavailability.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const state = sqlState(error);
  if (state !== undefined) return UNAVAILABLE_CLASSES.has(state.slice(0, 2));
  if (!(error instanceof Error)) return false;
  const code = (error as DatabaseErrorLike).code;
  if (typeof code === "string") return true; // ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE, ENOTFOUND, ...
  return /connect|connection|terminat|timeout|closed|ended|shutting down|not queryable|pglite/i.test(error.message);
}
