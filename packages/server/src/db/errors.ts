/**
 * Classifies database errors: a unique violation of a named constraint (mapped to a business answer), the
 * database being unavailable (mapped to the operation's 503 code), or anything else (a bug: 500).
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
  return typeof (error as DatabaseErrorLike).message === "string" && ((error as DatabaseErrorLike).message as string).includes(`"${constraint}"`);
}

// SQLSTATE classes meaning "the database cannot serve right now", not "this query is wrong":
// 08 connection exception, 53 insufficient resources, 57 operator intervention (shutdown, statement timeout),
// 58 system error, 40 transaction rollback (serialization failure, deadlock), 25 in failed/read-only transaction.
const UNAVAILABLE_CLASSES = new Set(["08", "53", "57", "58", "40", "25"]);

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
