/**
 * Server-side prepared statements on PostgreSQL. PostgreSQL parses and plans every statement it receives, unless
 * the statement is named: a named statement is parsed and planned once per connection, and each later run only
 * binds its values. For the statements a busy server runs most (a heartbeat batch's lock and write, a nonce
 * claim, an upsert) parsing and planning cost the database more than running them.
 *
 * Only statements whose text never changes are named: those of `prepareQuery` and those run through
 * {@link runPrepared} or marked by {@link markPrepared}. Queries whose text is built per call stay unnamed, so the
 * statements a connection holds are bounded by the code, never by the traffic. The name is a digest of the text,
 * so one text has one name in every connection and every process.
 *
 * A prepared statement keeps the columns of its result: PostgreSQL refuses to run one whose result would change
 * ("cached plan must not change result type"). So a prepared statement names its columns and never selects or
 * returns `*` of a table, and a migration that adds columns leaves the statements of running processes valid
 * (a rolling deploy runs old and new processes side by side).
 *
 * PGlite runs in this process and has no use for names: its dialect sends every statement unnamed.
 */
import { createHash } from "node:crypto";
import type { CompiledQuery, Kysely, QueryResult, RawBuilder, Transaction } from "kysely";
import pg from "pg";
import type { Database } from "./schema";

const statementNames = new Map<string, string>();

/** Marks `text` as a statement to prepare: on PostgreSQL each connection parses and plans it once. */
export function markPrepared(text: string): void {
  if (statementNames.has(text)) return;
  statementNames.set(text, `webinar_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`);
}

/** Compiles a raw statement whose text never changes (only its values do), marks it prepared and runs it. */
export async function runPrepared<Row>(
  executor: Kysely<Database> | Transaction<Database>,
  statement: RawBuilder<Row>,
): Promise<QueryResult<Row>> {
  const compiled: CompiledQuery<Row> = statement.compile(executor);
  markPrepared(compiled.sql);
  return executor.executeQuery(compiled);
}

/**
 * The pg client of the server's pool: a marked statement goes out by name, everything else as it came. Kysely
 * calls `query(text, values)`; the pool itself `query(text, values, callback)`.
 */
export class PreparingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const send = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((text: unknown, values?: unknown, callback?: unknown) => {
      const name = typeof text === "string" && Array.isArray(values) ? statementNames.get(text) : undefined;
      return name === undefined ? send(text, values, callback) : send({ name, text, values }, callback);
    }) as pg.Client["query"];
  }
}
