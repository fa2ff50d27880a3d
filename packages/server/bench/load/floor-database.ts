/**
 * The floor app's database through the drivers the server uses: PGlite in process for a data directory, a `pg`
 * Pool for a postgres:// URL (as large as the server's default pool, or WEBINAR_DB_POOL_MAX when set).
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export interface FloorDatabase {
  /** Runs a script of statements without parameters (schema and seed). */
  exec(script: string): Promise<void>;
  /** Runs one parameterized statement. */
  query<Row>(text: string, parameters: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

const SERVER_DEFAULT_POOL_MAX = 10;

export async function openFloorDatabase(location: string, env: NodeJS.ProcessEnv): Promise<FloorDatabase> {
  if (/^postgres(ql)?:\/\//.test(location)) {
    const pool = new pg.Pool({
      connectionString: location,
      max: Number(env.WEBINAR_DB_POOL_MAX ?? SERVER_DEFAULT_POOL_MAX),
    });
    return {
      exec: async (script) => void (await pool.query(script)),
      query: async <Row>(text: string, parameters: unknown[]) => (await pool.query(text, parameters)).rows as Row[],
      close: () => pool.end(),
    };
  }
  const pglite = await PGlite.create(location);
  return {
    exec: async (script) => void (await pglite.exec(script)),
    query: async <Row>(text: string, parameters: unknown[]) => (await pglite.query<Row>(text, parameters)).rows,
    close: () => pglite.close(),
  };
}
