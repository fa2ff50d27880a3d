/**
 * Kysely's PostgreSQL dialect over the database handle's `pg` pool, with one difference: a query that carries a
 * statement name (db/statements.ts) goes to PostgreSQL as that named statement, which `pg` parses once per
 * connection and afterwards only binds; every other query goes out unnamed, exactly as Kysely's own driver sends it.
 * Transactions and savepoints are Kysely's own, run on these connections.
 */
import {
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  PostgresDriver,
  type CompiledQuery,
  type QueryResult,
} from "kysely";
import type pg from "pg";
import type { NamedQuery } from "./statements";

const AFFECTS_ROWS = new Set(["INSERT", "UPDATE", "DELETE", "MERGE"]);

class NamingConnection implements DatabaseConnection {
  constructor(readonly client: pg.PoolClient) {}

  async executeQuery<Row>(compiled: CompiledQuery): Promise<QueryResult<Row>> {
    const name = (compiled as Partial<NamedQuery<Row>>).statementName;
    const values = [...compiled.parameters];
    const result = await (name === undefined
      ? this.client.query(compiled.sql, values)
      : this.client.query({ name, text: compiled.sql, values }));
    return {
      rows: result.rows as Row[],
      ...(AFFECTS_ROWS.has(result.command) ? { numAffectedRows: BigInt(result.rowCount ?? 0) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: the server streams no query; refusing is the whole implementation.
  async *streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error("streaming queries is not supported by the server's database handle");
  }
}

class NamingDriver extends PostgresDriver {
  constructor(private readonly pool: pg.Pool) {
    super({ pool });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    return new NamingConnection(await this.pool.connect());
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as NamingConnection).client.release();
  }
}

/** The dialect of the database handle on PostgreSQL. */
export class NamingPostgresDialect extends PostgresDialect {
  constructor(private readonly pool: pg.Pool) {
    super({ pool });
  }

  override createDriver(): Driver {
    return new NamingDriver(this.pool);
  }
}
