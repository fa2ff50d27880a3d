/**
 * Statements of fixed text: SQL written once, run with each call's values. On PostgreSQL the database handle's
 * connections (db/naming-postgres-dialect.ts) send such a statement by name, so each connection parses and plans it
 * once and each later run only binds its values. For the statements a busy server runs most (a heartbeat batch's
 * lock and write, a nonce claim, an upsert) parsing and planning cost the database more than running them.
 *
 * A statement is named by the digest of its text, the only way a statement gets a name: one text has one name in
 * every connection and every process, and two texts never share one. Only fixed texts become statements (a query
 * whose text is built per call goes through Kysely unnamed), so the statements a connection holds are bounded by
 * the code, never by the traffic.
 *
 * A prepared statement keeps the columns of its result: PostgreSQL refuses to run one whose result would change
 * ("cached plan must not change result type"). So a statement names its columns and never selects or returns `*`
 * of a table, and a migration that adds columns leaves the statements of running processes valid (a rolling deploy
 * runs old and new processes side by side).
 *
 * PGlite runs in this process and has no use for names: its dialect runs the text unnamed.
 */
import { hash } from "node:crypto";
import { CompiledQuery, type Kysely, type Transaction } from "kysely";
import type { Database } from "./schema";

/** SQL of fixed text with `$1`, `$2`, … for its values; `Row` is the shape of a row it returns. */
export interface Statement<Row> {
  readonly name: string;
  readonly text: string;
  /** Never set: carries the row type. */
  readonly row?: Row;
}

/** A compiled query that the database handle's connections send as a named statement. */
export interface NamedQuery<Row> extends CompiledQuery<Row> {
  readonly statementName: string;
}

/**
 * @example
 * const viewerById = statement<{ uid: number }>("select uid from viewers where merchant_id = $1 and id = $2");
 * const rows = await runStatement(db, viewerById, [merchantId, id]);
 */
export function statement<Row>(text: string): Statement<Row> {
  return { name: `webinar_${hash("sha256", text, "hex").slice(0, 32)}`, text };
}

/** Runs `statement` with `values` (in the order of its `$n`), on the database or inside a transaction. */
export async function runStatement<Row>(
  executor: Kysely<Database> | Transaction<Database>,
  { name, text }: Statement<Row>,
  values: readonly unknown[],
): Promise<Row[]> {
  const query: NamedQuery<Row> = { ...CompiledQuery.raw(text, [...values]), statementName: name };
  return (await executor.executeQuery<Row>(query)).rows;
}
