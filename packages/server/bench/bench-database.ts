/**
 * The benchmarks' PostgreSQL databases: made for one run on the server of an admin URL (BENCH_POSTGRES_URL, or
 * the machine's on 127.0.0.1:5432), named `webinar_bench_<label>_<random hex>`, and dropped after it.
 */
import { createPostgresDatabase, type PostgresDatabase } from "@org/webinar-test-support/postgres-database";

/** The admin URL a benchmark uses unless it is given another. */
export const DEFAULT_BENCH_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** BENCH_POSTGRES_URL, else the default. */
export const BENCH_POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? DEFAULT_BENCH_POSTGRES_URL;

/** An empty database for one benchmark run, on `adminUrl`'s server. */
export function createBenchDatabase(label: string, adminUrl: string = BENCH_POSTGRES_URL): Promise<PostgresDatabase> {
  return createPostgresDatabase(label, { adminUrl, prefix: "webinar_bench" });
}
