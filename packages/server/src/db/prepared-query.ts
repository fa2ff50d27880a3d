/**
 * Queries built and compiled once per process. Kysely builds and compiles a query on every call, which costs a
 * busy process more than the round trip it prepares (a CPU profile under load shows the builder's node visits
 * among its top entries). A prepared query is built once with a placeholder for each value, compiled once, and run
 * with the values put where their placeholders were, so its SQL text never changes and neither does its meaning;
 * on PostgreSQL the database parses and plans it once per connection too (prepared-statements.ts).
 *
 * Only values can be placeholders: a choice that changes the SQL (a list whose length varies, a clause that is
 * there or not) is a separate prepared query, or a value the SQL decides on (`case when $1 then …`).
 */
import { CompiledQuery, type Compilable, type Kysely } from "kysely";
import { markPrepared } from "./prepared-statements";
import type { Database } from "./schema";

/** A prepared query: run it with the values of its placeholders. */
export type PreparedQuery<Values, Row> = (values: Values) => Promise<Row[]>;

const PLACEHOLDER_MARK = "\u0000placeholder:";

/**
 * @example
 * const viewerByExternalId = prepareQuery<{ merchantId: string; externalUserId: string }, ViewerRow>(db, (value) =>
 *   db.selectFrom("viewers").selectAll()
 *     .where("merchant_id", "=", value("merchantId"))
 *     .where("external_user_id", "=", value("externalUserId")),
 * );
 * const rows = await viewerByExternalId({ merchantId, externalUserId: "crm-1" });
 */
export function prepareQuery<Values, Row>(
  db: Kysely<Database>,
  build: (value: <Name extends keyof Values & string>(name: Name) => Values[Name]) => Compilable<Row>,
): PreparedQuery<Values, Row> {
  // A placeholder is a marked string while the query is built; the builder passes it on as a parameter.
  const compiled = build((name) => `${PLACEHOLDER_MARK}${name}` as never).compile();
  markPrepared(compiled.sql);
  // Each parameter: the name of the placeholder it came from, or a value the builder fixed (a constant).
  const slots = compiled.parameters.map((parameter) =>
    typeof parameter === "string" && parameter.startsWith(PLACEHOLDER_MARK)
      ? { name: parameter.slice(PLACEHOLDER_MARK.length) as keyof Values }
      : { value: parameter },
  );
  return async (values) => {
    const parameters = slots.map((slot) => ("name" in slot ? values[slot.name] : slot.value));
    const result = await db.executeQuery(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<Row>);
    return result.rows;
  };
}
