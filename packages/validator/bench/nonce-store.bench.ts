/**
 * `pnpm --filter @org/webinar-validator bench:nonces`: what group commit does for the PostgreSQL nonce store under
 * load, against the PostgreSQL at 127.0.0.1:5432 (a database of its own, dropped after). Clients claim fresh nonces
 * one after another, each waiting for its answer as a request would, through one `pg.Pool` per store; the same load
 * runs with group commit on (the default) and off, in turns. Printed: claims per second, statements per second,
 * and the claims each statement carried (mean, median, 90th percentile, largest). Never a test: figures depend on
 * the machine, so nothing here asserts a time.
 *
 * Options: --clients <n> (64), --seconds <s> per run (5), --rounds <n> (3), --pool <n> connections (10).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { createPostgresNonceStore, type PostgresQueryable } from "@org/webinar-validator/nonce-store/postgres";
import { median } from "@org/webinar-internal/median";

const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

function options() {
  const { values } = parseArgs({
    options: {
      clients: { type: "string", default: "64" },
      seconds: { type: "string", default: "5" },
      rounds: { type: "string", default: "3" },
      pool: { type: "string", default: "10" },
    },
  });
  const whole = (name: string, text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number >= 1`);
    return value;
  };
  return {
    clients: whole("clients", values.clients),
    seconds: whole("seconds", values.seconds),
    rounds: whole("rounds", values.rounds),
    pool: whole("pool", values.pool),
  };
}

interface Run {
  claimsPerSecond: number;
  batchSizes: number[];
  seconds: number;
}

/** `clients` clients claiming fresh nonces in turn for `seconds`; the claims of each statement the store sent. */
async function load(pool: pg.Pool, groupCommit: boolean, settings: ReturnType<typeof options>): Promise<Run> {
  const batchSizes: number[] = [];
  const client: PostgresQueryable = {
    query(text, values) {
      if (text.startsWith("INSERT")) batchSizes.push((values as [unknown[]])[0].length);
      return pool.query(text, values);
    },
  };
  const store = createPostgresNonceStore({
    client,
    table: `bench_nonces_${randomBytes(4).toString("hex")}`,
    ...(groupCommit ? {} : { groupCommit: false }),
  });
  await store.ensureSchema();
  const until = performance.now() + settings.seconds * 1000;
  let claims = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: settings.clients }, async () => {
      while (performance.now() < until) {
        if (!(await store.consume("wk_bench", randomBytes(16).toString("hex"), Date.now() + 600_000)))
          throw new Error("a fresh nonce was refused");
        claims += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { claimsPerSecond: claims / seconds, batchSizes, seconds };
}

const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

function describe(label: string, runs: Run[]): string {
  const sizes = runs.flatMap((run) => run.batchSizes);
  const statementsPerSecond = median(runs.map((run) => run.batchSizes.length / run.seconds));
  const mean = sizes.reduce((sum, size) => sum + size, 0) / sizes.length;
  return [
    label.padEnd(22),
    median(runs.map((run) => run.claimsPerSecond))
      .toFixed(0)
      .padStart(8),
    statementsPerSecond.toFixed(0).padStart(10),
    mean.toFixed(1).padStart(7),
    String(median(sizes)).padStart(7),
    String(percentile(sizes, 0.9)).padStart(7),
    String(Math.max(...sizes)).padStart(7),
  ].join("  ");
}

async function main(): Promise<void> {
  const settings = options();
  const database = `validator_bench_nonces_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const { rows } = await admin.query("SHOW synchronous_commit");
  const synchronousCommit = (rows[0] as { synchronous_commit: string }).synchronous_commit;
  const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:5432/${database}`, max: settings.pool });
  const grouped: Run[] = [];
  const single: Run[] = [];
  try {
    for (let round = 0; round < settings.rounds; round += 1) {
      // In turns, so both see the same drift of this shared machine.
      grouped.push(await load(pool, true, settings));
      single.push(await load(pool, false, settings));
      process.stderr.write(
        `  round ${round + 1}: group commit ${grouped.at(-1)!.claimsPerSecond.toFixed(0)} claims/s, ` +
          `one statement each ${single.at(-1)!.claimsPerSecond.toFixed(0)} claims/s\n`,
      );
    }
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.end();
  }
  process.stdout.write(
    [
      `PostgreSQL nonce store, ${settings.clients} clients claiming in turn, pg.Pool of ${settings.pool}, ` +
        `${settings.rounds} rounds x ${settings.seconds} s, synchronous_commit ${synchronousCommit}`,
      "claims/s and statements/s: median over the rounds; claims per statement: over every statement of every round.",
      "",
      `  ${"store".padEnd(22)}  ${"claims/s".padStart(8)}  ${"statements/s".padStart(10)}  ${"mean".padStart(7)}  ${"median".padStart(7)}  ${"p90".padStart(7)}  ${"max".padStart(7)}`,
      `  ${describe("group commit (default)", grouped)}`,
      `  ${describe("groupCommit: false", single)}`,
      "",
    ].join("\n"),
  );
}

await main();
