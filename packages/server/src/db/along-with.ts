/** Work a caller adds to the transaction of another module's change. */
import type { Transaction } from "kysely";
import type { Database } from "./schema";

/**
 * Runs in the change's transaction with the change's result, after the change and before the commit, so it commits
 * or rolls back with the change: the console writes its audit event this way, never apart from what it records.
 */
export type AlongWith<T> = (trx: Transaction<Database>, result: T) => Promise<void>;

/** Nothing to add. */
export const NOTHING_ALONG: AlongWith<unknown> = async () => undefined;
