/**
 * Throttling of failed console sign-ins, per account (the email) and per client address, counted in the database
 * so every process sees the same failures: after 5 failures of one email, or 20 from one address, within 15
 * minutes, signIn answers 429 with `Retry-After` until the oldest counted failure leaves the window. A success
 * does not reset the count (an attacker who knows one password must not reset another's count).
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";

export const THROTTLE_WINDOW_SECONDS = 15 * 60;
const LIMITS = { email: 5, address: 20 } as const;

type Kind = keyof typeof LIMITS;

function subject(kind: Kind, value: string): string {
  return `${kind}:${kind === "email" ? value.trim().toLowerCase() : value}`;
}

/** The subjects a sign-in attempt counts against. */
export function throttleSubjects(email: string, address: string): Record<Kind, string> {
  return { email: subject("email", email), address: subject("address", address) };
}

/** Throws 429 CONSOLE_SIGN_IN_THROTTLED when either subject reached its limit within the window. */
export async function checkThrottle(
  db: Kysely<Database>,
  subjects: Record<Kind, string>,
  nowMs: number,
): Promise<void> {
  const since = new Date(nowMs - THROTTLE_WINDOW_SECONDS * 1000);
  for (const kind of Object.keys(LIMITS) as Kind[]) {
    const limit = LIMITS[kind];
    // The failure that has to leave the window before another attempt is allowed: the limit-th newest.
    const blocking = await db
      .selectFrom("console_sign_in_failures")
      .select("failed_at")
      .where("subject", "=", subjects[kind])
      .where("failed_at", ">", since)
      .orderBy("failed_at", "desc")
      .offset(limit - 1)
      .limit(1)
      .executeTakeFirst();
    if (blocking === undefined) continue;
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((new Date(blocking.failed_at).getTime() + THROTTLE_WINDOW_SECONDS * 1000 - nowMs) / 1000),
    );
    throw new ServiceError("CONSOLE_SIGN_IN_THROTTLED", "too many failed sign-ins; try again later", {
      retryAfterSeconds,
    });
  }
}

/** Counts a failed attempt against both subjects, and forgets failures older than the window. */
export async function recordFailure(
  db: Kysely<Database>,
  subjects: Record<Kind, string>,
  nowMs: number,
): Promise<void> {
  const failedAt = new Date(nowMs);
  await db
    .insertInto("console_sign_in_failures")
    .values(Object.values(subjects).map((value) => ({ subject: value, failed_at: failedAt })))
    .execute();
  await db
    .deleteFrom("console_sign_in_failures")
    .where("failed_at", "<", new Date(nowMs - THROTTLE_WINDOW_SECONDS * 1000))
    .execute();
}
