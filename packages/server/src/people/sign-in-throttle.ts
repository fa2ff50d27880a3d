/**
 * The console's sign-in throttle. Every attempt is counted in the database before its password is checked, in one
 * transaction whose row locks every server process shares, so neither a burst of parallel attempts nor attempts
 * spread over several processes get a guess beyond the limits:
 *
 * - per email and address: 5 attempts within 15 minutes; the next answer 429 until 15 minutes after the first;
 * - per address: 50 attempts within 15 minutes, whatever the emails;
 * - per email, from every address together: past 10 attempts within 15 minutes, one attempt is checked per
 *   interval, which doubles from 1 second up to 60; the others answer 429 until it passes. Failures from other
 *   addresses slow a person down, but never lock them out for longer than a minute.
 *
 * A refused attempt is not counted (a flood cannot push a window forward). An attempt whose password was right
 * gives its count back, and a sign-in also clears the count of its own email and address; it never clears what
 * other addresses did. Each count is one row of `console_sign_in_attempts` with the start of its window; an
 * attempt upserts its three rows in a fixed order (email and address, address, email), so concurrent attempts wait
 * for one another's row locks and never deadlock.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";

export const THROTTLE_WINDOW_SECONDS = 15 * 60;

/** The limits within one window. */
export const SIGN_IN_LIMITS = {
  /** Attempts per email and address. */
  pair: 5,
  /** Attempts per address, any email. */
  address: 50,
  /** Attempts per email from every address before each further one waits its interval. */
  emailBeforeSlowdown: 10,
  /** The longest interval between two checked attempts of one email, in seconds. */
  slowdownMaxSeconds: 60,
} as const;

/** The three counts an attempt is part of. */
export interface ThrottleSubjects {
  pair: string;
  address: string;
  email: string;
}

/** The subjects of an attempt; the email is compared without regard to case. */
export function throttleSubjects(email: string, address: string): ThrottleSubjects {
  const normalized = email.trim().toLowerCase();
  return { pair: `pair:${normalized} ${address}`, address: `address:${address}`, email: `email:${normalized}` };
}

const throttled = (retryAfterSeconds: number) =>
  new ServiceError("CONSOLE_SIGN_IN_THROTTLED", "too many sign-in attempts; try again later", {
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
  });

/** The wait before the next checked attempt of an email that has made `attempts` within its window, in seconds. */
export function slowdownSeconds(attempts: number): number {
  const beyond = attempts - SIGN_IN_LIMITS.emailBeforeSlowdown;
  return beyond <= 0 ? 0 : Math.min(2 ** (beyond - 1), SIGN_IN_LIMITS.slowdownMaxSeconds);
}

interface Count {
  attempts: number;
  window_started_at: Date;
  next_check_at: Date | null;
}

/** Adds one attempt to a subject's count in `trx` (in a new window when its window has passed). */
async function countAttempt(trx: Transaction<Database>, subject: string, nowMs: number): Promise<Count> {
  const now = new Date(nowMs);
  const windowStart = new Date(nowMs - THROTTLE_WINDOW_SECONDS * 1000);
  const passed = sql<boolean>`console_sign_in_attempts.window_started_at <= ${windowStart}`;
  return trx
    .insertInto("console_sign_in_attempts")
    .values({ subject, attempts: 1, window_started_at: now, next_check_at: null })
    .onConflict((conflict) =>
      conflict.column("subject").doUpdateSet({
        attempts: sql<number>`case when ${passed} then 1 else console_sign_in_attempts.attempts + 1 end`,
        window_started_at: sql<Date>`case when ${passed} then ${now} else console_sign_in_attempts.window_started_at end`,
        next_check_at: sql<Date | null>`case when ${passed} then null else console_sign_in_attempts.next_check_at end`,
      }),
    )
    .returning(["attempts", "window_started_at", "next_check_at"])
    .executeTakeFirstOrThrow();
}

/**
 * Counts an attempt against its subjects before its password is checked, or throws 429
 * CONSOLE_SIGN_IN_THROTTLED with `retryAfterSeconds` and counts nothing when a limit is reached.
 */
export async function admitAttempt(db: Kysely<Database>, subjects: ThrottleSubjects, nowMs: number): Promise<void> {
  const windowLeft = (count: Count) =>
    (new Date(count.window_started_at).getTime() + THROTTLE_WINDOW_SECONDS * 1000 - nowMs) / 1000;
  // A refusal is thrown inside the transaction, so the counts it added roll back.
  await db.transaction().execute(async (trx) => {
    const pair = await countAttempt(trx, subjects.pair, nowMs);
    if (pair.attempts > SIGN_IN_LIMITS.pair) throw throttled(windowLeft(pair));
    const address = await countAttempt(trx, subjects.address, nowMs);
    if (address.attempts > SIGN_IN_LIMITS.address) throw throttled(windowLeft(address));
    const email = await countAttempt(trx, subjects.email, nowMs);
    if (email.attempts <= SIGN_IN_LIMITS.emailBeforeSlowdown) return;
    const nextCheck = email.next_check_at === null ? nowMs : new Date(email.next_check_at).getTime();
    if (nextCheck > nowMs) throw throttled((nextCheck - nowMs) / 1000);
    await trx
      .updateTable("console_sign_in_attempts")
      .set({ next_check_at: new Date(nowMs + slowdownSeconds(email.attempts) * 1000) })
      .where("subject", "=", subjects.email)
      .execute();
  });
}

/**
 * Gives an admitted attempt back: its password was right (`signedIn` also clears the count of its email and
 * address), or it was never checked.
 */
export async function forgiveAttempt(
  db: Kysely<Database>,
  subjects: ThrottleSubjects,
  { signedIn }: { signedIn: boolean },
): Promise<void> {
  await db
    .updateTable("console_sign_in_attempts")
    .set((eb) => ({ attempts: eb.fn("greatest", [eb("attempts", "-", 1), eb.lit(0)]) }))
    .where("subject", "in", signedIn ? [subjects.address, subjects.email] : Object.values(subjects))
    .execute();
  if (signedIn) await db.deleteFrom("console_sign_in_attempts").where("subject", "=", subjects.pair).execute();
}

/** Forgets counts whose window has passed and that slow nobody down any more (after a failure: cheap, bounded). */
export async function forgetPassedWindows(db: Kysely<Database>, nowMs: number): Promise<void> {
  const now = new Date(nowMs);
  await db
    .deleteFrom("console_sign_in_attempts")
    .where("window_started_at", "<", new Date(nowMs - THROTTLE_WINDOW_SECONDS * 1000))
    .where((eb) => eb.or([eb("next_check_at", "is", null), eb("next_check_at", "<", now)]))
    .execute();
}
