/**
 * The floor under every PostgreSQL-backed request: `MEASURED` one-row queries (`select $1::int`) through
 * node-postgres, the driver the server uses, `CONCURRENCY` in flight on a pool of as many connections. Prints
 * the process CPU per query as JSON; server.bench.ts runs it in a child process of its own, like the servers.
 */
import pg from "pg";

const url = process.env.DATABASE_URL!;
const concurrency = Number(process.env.CONCURRENCY);
const measured = Number(process.env.MEASURED);
const pool = new pg.Pool({ connectionString: url, max: concurrency });
const run = async (count: number) => {
  let issued = 0;
  const worker = async () => {
    while (issued < count) await pool.query("select $1::int as n", [issued++]);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
};
await run(Math.min(measured, 1000));
const before = process.cpuUsage();
await run(measured);
const cpu = process.cpuUsage(before);
await pool.end();
console.log(JSON.stringify({ cpuMicros: (cpu.user + cpu.system) / measured }));
