/**
 * Statements of the per-request hot path as fixed SQL text with positional parameters, run through Kysely's
 * driver without building and compiling a query tree on every call (Kysely's builder costs tens of
 * microseconds per query; these run several times per request). Everything else uses the typed builder.
 */
import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "./schema";

/** A statement whose rows have type `Row`; call it with the database and the parameters in `$n` order. */
export type CompiledStatement<Row> = (db: Kysely<Database>, parameters: readonly unknown[]) => Promise<Row[]>;

/**
 * @example
 * const findViewer = statement<{ uid: number }>("select uid from viewers where merchant_id = $1 and uid = $2");
 * const rows = await findViewer(db, [merchantId, uid]);
 */
export function statement<Row>(text: string): CompiledStatement<Row> {
  const sqlText = text.replace(/\s+/g, " ").trim();
  return async (db, parameters) => (await db.executeQuery<Row>(CompiledQuery.raw(sqlText, [...parameters]))).rows;
}
