/**
 * The load benchmark's settings, from flags first and the environment second (see load.bench.ts for the list).
 * The defaults give stable figures in about four minutes on two cores; `--quick` is a smoke run.
 */
import { isAbsolute, resolve } from "node:path";
import { parseArgs } from "node:util";
import { OPERATIONS, type OperationId } from "./operations";
import { DEFAULT_BENCH_POSTGRES_URL } from "../bench-database";
import { BUILT_SERVER_MAIN } from "./processes";

export type DatabaseKind = "pglite" | "postgres";

export interface LoadBenchOptions {
  /** The built server entry point that is started as `node <serverMain>`. */
  serverMain: string;
  json: boolean;
  quick: boolean;
  /** Measured seconds per row (per operation, per server or floor); whole seconds. */
  durationSeconds: number;
  /** Unmeasured seconds before each measured run, on as many connections; whole seconds, 0 for none. */
  warmupSeconds: number;
  connections: number;
  databases: DatabaseKind[];
  /** An admin URL of the PostgreSQL server; the bench creates and drops its databases there. */
  postgresUrl: string;
  /** Viewers created before the runs: the existing-viewer upserts and the tickets go round them. */
  existingViewers: number;
  /** Viewers with watch data on the finalized webinar whose detail page is read. */
  watchedViewers: number;
  /** Viewers of the live webinar, each with a playback session of its own, that the heartbeats go round. */
  heartbeatViewers: number;
  /** The operations to measure, in the order of OPERATIONS. */
  operations: OperationId[];
  /** Whether the two-process comparison on PostgreSQL runs (not with `--only` or `--profile`). */
  twoProcesses: boolean;
  /** Set with `--profile`: the server runs under `node --cpu-prof` for this one operation. */
  profile: OperationId | undefined;
  /** With `--tracing`: each operation also measured on a server exporting OpenTelemetry traces, beside the floor. */
  tracing: boolean;
  /** Whether the server writes the merchant console's request log (WEBINAR_REQUEST_LOG); `--request-log off`. */
  requestLog: boolean;
  /** With `--tracing`: how many times every server and the floor are measured, per operation. */
  rounds: number;
}

const USAGE = `Usage: pnpm bench:load [options]   (from the repository root; builds first)

  --server <main.js>     the built server to measure (default: this checkout's packages/server/dist/main.js;
                         a relative path starts at the repository root)
  --json                 print the figures as one JSON document instead of the tables
  --quick                smoke run: 1 s rows after 1 s warm-up, fewer seeded viewers
  --duration <s>         measured seconds per row          (BENCH_LOAD_DURATION, default 8)
  --warmup <s>           warm-up seconds before each row   (BENCH_LOAD_WARMUP, default 2)
  --connections <n>      concurrent connections             (BENCH_LOAD_CONNECTIONS, default 16)
  --db <list>            pglite,postgres                    (BENCH_LOAD_DB, default both)
  --postgres-url <url>   admin URL of PostgreSQL            (BENCH_POSTGRES_URL, default ${DEFAULT_BENCH_POSTGRES_URL})
  --viewers <n>          viewers of the heartbeat row, each with its own playback session
                                                            (BENCH_LOAD_VIEWERS, default 3000; --quick 300)
  --only <list>          measure only these operations (no two-process rows): ${OPERATIONS.map((operation) => operation.id).join(",")}
  --request-log on|off   the server's console request log, one batched row per Open API request
                                                            (BENCH_LOAD_REQUEST_LOG, default on): run once with each
                                                            and compare the Open API rows' server/floor ratios
  --profile <operation>  measure only this operation, with each server under node --cpu-prof; print the top
                         self-time entries of the measured seconds and keep the .cpuprofile files
  --tracing              measure each operation again on the ordinary server and, started beside it on the same
                         data, servers with tracing on (every span exported to a local OTLP sink; 10% sampled),
                         with the request log off, and a second ordinary server (the noise: what two identical
                         servers differ by), round after round in a turning order, each round with the floor: the
                         costs of tracing and of the request log (no two-process rows); then each
                         again at half the ordinary server's throughput, for CPU per request (server + PostgreSQL)
                         at the same load
  --rounds <n>           rounds of --tracing; each cost is the median of its rounds
                                                            (BENCH_LOAD_ROUNDS, default 3; --quick 1)
`;

/** A whole number from a flag or variable: autocannon ends its runs on whole seconds. */
function wholeNumber(name: string, text: string, minimum: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum)
    throw new Error(`${name} must be a whole number >= ${minimum}, got "${text}"`);
  return value;
}

function operationIds(flag: string, text: string): OperationId[] {
  const ids = text.split(",").map((id) => id.trim());
  for (const id of ids)
    if (!OPERATIONS.some((operation) => operation.id === id))
      throw new Error(
        `${flag} takes operations of ${OPERATIONS.map((operation) => operation.id).join(", ")}, got "${id}"`,
      );
  // Measured in the table's order, whatever the order given.
  return OPERATIONS.map((operation) => operation.id).filter((id) => ids.includes(id));
}

function databaseKinds(text: string): DatabaseKind[] {
  const kinds = text.split(",").map((kind) => kind.trim());
  for (const kind of kinds)
    if (kind !== "pglite" && kind !== "postgres") throw new Error(`--db takes pglite and/or postgres, got "${kind}"`);
  return kinds as DatabaseKind[];
}

/**
 * pnpm runs the script in this package's folder but keeps the folder it ran the root script in (the repository
 * root for `pnpm bench:load`) in INIT_CWD: a relative `--server` is taken from there.
 */
function fromCallerDirectory(path: string, env: NodeJS.ProcessEnv): string {
  return isAbsolute(path) ? path : resolve(env.INIT_CWD ?? process.cwd(), path);
}

/** The settings, or `undefined` after printing the usage for `--help`. */
export function loadBenchOptions(argv: string[], env: NodeJS.ProcessEnv): LoadBenchOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: "string" },
      json: { type: "boolean", default: false },
      quick: { type: "boolean", default: false },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      db: { type: "string" },
      "postgres-url": { type: "string" },
      viewers: { type: "string" },
      only: { type: "string" },
      profile: { type: "string" },
      tracing: { type: "boolean", default: false },
      "request-log": { type: "string" },
      rounds: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return undefined;
  }
  const quick = values.quick;
  const duration = values.duration ?? env.BENCH_LOAD_DURATION ?? (quick ? "1" : "8");
  const warmup = values.warmup ?? env.BENCH_LOAD_WARMUP ?? (quick ? "1" : "2");
  const connections = values.connections ?? env.BENCH_LOAD_CONNECTIONS ?? "16";
  const rounds = values.rounds ?? env.BENCH_LOAD_ROUNDS ?? (quick ? "1" : "3");
  const viewers = values.viewers ?? env.BENCH_LOAD_VIEWERS ?? (quick ? "300" : "3000");
  if (values.profile?.includes(",")) throw new Error(`--profile takes one operation, got "${values.profile}"`);
  const profile = values.profile === undefined ? undefined : operationIds("--profile", values.profile)[0];
  if (profile !== undefined && values.tracing) throw new Error("--tracing and --profile measure apart: give one");
  const operations =
    profile !== undefined
      ? [profile]
      : values.only !== undefined
        ? operationIds("--only", values.only)
        : OPERATIONS.map((operation) => operation.id);
  const requestLog = values["request-log"] ?? env.BENCH_LOAD_REQUEST_LOG ?? "on";
  if (requestLog !== "on" && requestLog !== "off")
    throw new Error(`--request-log takes on or off, got "${requestLog}"`);
  return {
    serverMain: values.server === undefined ? BUILT_SERVER_MAIN : fromCallerDirectory(values.server, env),
    json: values.json,
    quick,
    durationSeconds: wholeNumber("--duration", duration, 1),
    warmupSeconds: wholeNumber("--warmup", warmup, 0),
    connections: wholeNumber("--connections", connections, 1),
    databases: databaseKinds(values.db ?? env.BENCH_LOAD_DB ?? "pglite,postgres"),
    postgresUrl: values["postgres-url"] ?? env.BENCH_POSTGRES_URL ?? DEFAULT_BENCH_POSTGRES_URL,
    // A detail page of 100 needs more than 100 watched viewers; "a few hundred" makes it a real page of three.
    existingViewers: quick ? 200 : 1000,
    watchedViewers: quick ? 150 : 300,
    heartbeatViewers: wholeNumber("--viewers", viewers, 1),
    operations,
    twoProcesses: profile === undefined && values.only === undefined && !values.tracing,
    profile,
    tracing: values.tracing,
    requestLog: requestLog === "on",
    rounds: wholeNumber("--rounds", rounds, 1),
  };
}
