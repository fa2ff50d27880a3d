/**
 * The whole run: per database, one server and one floor app with the same data, every operation measured on
 * both in turn; on PostgreSQL then a second server process on the same database for the two-process line.
 * Everything started is stopped and every database made is dropped, also when a step fails or the run is
 * interrupted (`stopEverything`). With `--profile` the server runs under `node --cpu-prof`; once it has stopped
 * (and written its profile), the profile's top self-time entries of the measured seconds are summarized.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SelfTimeSummary, readCpuProfile, sourceLocationMapper, topSelfTime } from "./cpu-profile";
import {
  FIRST_UID,
  FLOOR_LIVE_TICKET_CODE,
  FLOOR_TICKET_CODE,
  FLOOR_WATCH_TICKET_CODE,
  floorPlaybackId,
} from "./floor-schema";
import { existingExternalUserId, type Fixture, prepareFixture } from "./fixture";
import { type Figures, measure, type RunSettings, type Target } from "./measure";
import { operationById, type OperationId, TWO_PROCESS_OPERATIONS } from "./operations";
import type { DatabaseKind, LoadBenchOptions } from "./options";
import { createRunDatabase } from "../postgres-run-database";
import { type RunningProcess, startProcess } from "./processes";

export interface OperationRow {
  operation: OperationId;
  label: string;
  server: Figures;
  floor: Figures;
  /** Server requests per second over the floor's. */
  serverToFloor: number;
}

export interface TwoProcessRow {
  operation: OperationId;
  label: string;
  oneProcess: Figures;
  twoProcesses: Figures;
  /** Two processes' requests per second over one's. */
  ratio: number;
}

export interface ProfileRow {
  database: DatabaseKind;
  operation: OperationId;
  /** The server's `.cpuprofile`, kept after the run. */
  file: string;
  summary: SelfTimeSummary;
}

export interface LoadBenchResult {
  serverMain: string;
  node: string;
  /** `os.availableParallelism()`: shared by autocannon, the server processes, the floor and PostgreSQL. */
  cores: number;
  settings: RunSettings & {
    quick: boolean;
    existingViewers: number;
    watchedViewers: number;
    heartbeatViewers: number;
    profile: OperationId | null;
    requestLog: boolean;
  };
  databases: { database: DatabaseKind; operations: OperationRow[] }[];
  /** On PostgreSQL only; null when PostgreSQL was not measured, or with `--only` or `--profile`. */
  twoProcesses: TwoProcessRow[] | null;
  /** With `--profile`: per database, where the server spent its busy time in the measured seconds. */
  profiles: ProfileRow[] | null;
  /** Every error of every row (non-200 answers, wrong shapes, connection errors and timeouts). */
  errors: number;
}

const ADMIN_TOKEN = randomBytes(16).toString("hex");
const FLOOR_APP = fileURLToPath(new URL("./floor-app.ts", import.meta.url));
const REPOSITORY_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
/** Entries of a profile summary. */
const PROFILE_ENTRIES = 15;

const pendingCleanups: (() => Promise<void>)[] = [];

/** Registers `cleanup` to run (last registered first) when its scope ends or the run is interrupted. */
function defer(cleanup: () => Promise<void>): void {
  pendingCleanups.push(cleanup);
}

/** Runs the registered cleanups down to `depth`, the newest first; a failing one does not stop the others. */
async function cleanUpTo(depth: number): Promise<void> {
  while (pendingCleanups.length > depth) {
    await pendingCleanups.pop()!().catch((error: unknown) =>
      process.stderr.write(`cleanup failed: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  }
}

/** Stops every process and drops every database still there (for an interrupted run). */
export function stopEverything(): Promise<void> {
  return cleanUpTo(0);
}

async function scoped<T>(body: () => Promise<T>): Promise<T> {
  const depth = pendingCleanups.length;
  try {
    return await body();
  } finally {
    await cleanUpTo(depth);
  }
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

async function temporaryDirectory(purpose: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), `webinar-bench-load-${purpose}-`));
  defer(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

async function started(starting: Promise<RunningProcess>): Promise<RunningProcess> {
  const running = await starting;
  defer(() => running.stop());
  return running;
}

/**
 * The server as `node <main.js>` with the admin contract's environment; no demo data (the fixture makes its own).
 * With `profile`, under `node --cpu-prof`: the profile is written to `<directory>/<name>` when the server exits.
 */
function startServer(
  options: LoadBenchOptions,
  storage: Record<string, string>,
  secretKey: string,
  profile?: { directory: string; name: string },
): Promise<RunningProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WEBINAR_ADMIN_TOKEN: ADMIN_TOKEN,
    WEBINAR_SECRET_KEY: secretKey,
    WEBINAR_SEED_DEMO: "false",
    WEBINAR_REQUEST_LOG: options.requestLog ? "true" : "false",
    ...storage,
  };
  if (storage.DATABASE_URL === undefined) delete env.DATABASE_URL;
  const profiling =
    profile === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", profile.directory, "--cpu-prof-name", profile.name];
  return started(startProcess({ name: "server", nodeArguments: [...profiling, options.serverMain], env }));
}

function startFloor(options: LoadBenchOptions, database: string): Promise<RunningProcess> {
  const env = {
    ...process.env,
    FLOOR_DATABASE: database,
    FLOOR_EXISTING_VIEWERS: String(options.existingViewers),
    FLOOR_WATCHED_VIEWERS: String(options.watchedViewers),
    FLOOR_LIVE_VIEWERS: String(liveViewers(options)),
  };
  return started(
    startProcess({
      name: "floor app",
      nodeArguments: ["--import", "tsx", FLOOR_APP],
      env,
      cwd: fileURLToPath(new URL(".", import.meta.url)),
    }),
  );
}

/** The live viewers to make: the heartbeat row's, when it is measured. */
function liveViewers(options: LoadBenchOptions): number {
  return options.operations.includes("heartbeat") ? options.heartbeatViewers : 0;
}

/**
 * The floor's data as the operations see it: the floor seeds the same viewers with uids from FIRST_UID, and the
 * live viewers' open sessions as floorPlaybackId(index).
 */
function floorFixture(serverFixture: Fixture, existingViewers: number): Fixture {
  const fixture: Fixture = {
    // Signed like the server's requests, so the load generator does the same work for both.
    credentials: serverFixture.credentials,
    ticketCode: FLOOR_TICKET_CODE,
    watchTicketCode: FLOOR_WATCH_TICKET_CODE,
    existingExternalUserIds: Array.from({ length: existingViewers }, (_, index) => existingExternalUserId(index)),
    existingUids: Array.from({ length: existingViewers }, (_, index) => FIRST_UID + index),
  };
  if (serverFixture.heartbeat !== undefined)
    fixture.heartbeat = {
      ticketCode: FLOOR_LIVE_TICKET_CODE,
      // The server's cookies, which the floor does not read: the same request bytes go to both.
      viewers: serverFixture.heartbeat.viewers.map((viewer, index) => ({
        cookie: viewer.cookie,
        playbackId: floorPlaybackId(index),
      })),
    };
  return fixture;
}

const describe = (figures: Figures) =>
  `${figures.requestsPerSecond.toFixed(0)} req/s${figures.errors.total > 0 ? `, ${figures.errors.total} errors` : ""}`;

async function benchOperations(
  database: DatabaseKind,
  operations: OperationId[],
  server: Target,
  floor: Target,
  settings: RunSettings,
): Promise<OperationRow[]> {
  const rows: OperationRow[] = [];
  for (const operation of operations.map(operationById)) {
    const serverFigures = await measure(operation, [server], settings);
    const floorFigures = await measure(operation, [floor], settings);
    progress(`  [${database}] ${operation.label}: server ${describe(serverFigures)}, floor ${describe(floorFigures)}`);
    rows.push({
      operation: operation.id,
      label: operation.label,
      server: serverFigures,
      floor: floorFigures,
      serverToFloor: serverFigures.requestsPerSecond / floorFigures.requestsPerSecond,
    });
  }
  return rows;
}

async function benchTwoProcesses(first: Target, second: Target, settings: RunSettings): Promise<TwoProcessRow[]> {
  const rows: TwoProcessRow[] = [];
  for (const id of TWO_PROCESS_OPERATIONS) {
    const operation = operationById(id);
    const oneProcess = await measure(operation, [first], settings);
    const twoProcesses = await measure(operation, [first, second], settings);
    progress(`  [postgres] ${operation.label}: one process ${describe(oneProcess)}, two ${describe(twoProcesses)}`);
    rows.push({
      operation: id,
      label: operation.label,
      oneProcess,
      twoProcesses,
      ratio: twoProcesses.requestsPerSecond / oneProcess.requestsPerSecond,
    });
  }
  return rows;
}

function settingsOf(options: LoadBenchOptions): RunSettings {
  return {
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
  };
}

/** Where `--profile` keeps the servers' profiles: a folder of its own, left in place after the run. */
async function profileDirectory(options: LoadBenchOptions): Promise<string | undefined> {
  return options.profile === undefined ? undefined : mkdtemp(join(tmpdir(), "webinar-bench-profile-"));
}

/** The server's profile (written when it stopped), summarized over the measured seconds of its rows. */
function summarizeProfile(database: DatabaseKind, file: string, rows: OperationRow[]): ProfileRow[] {
  const profile = readCpuProfile(file);
  const mapLocation = sourceLocationMapper(REPOSITORY_ROOT);
  return rows.map((row) => ({
    database,
    operation: row.operation,
    file,
    summary: topSelfTime(
      profile,
      { fromMicros: row.server.measuredFromMicros, toMicros: row.server.measuredToMicros },
      PROFILE_ENTRIES,
      mapLocation,
    ),
  }));
}

interface DatabaseRun {
  rows: OperationRow[];
  twoProcesses: TwoProcessRow[] | null;
  profiles: ProfileRow[];
}

/**
 * One database's rows: the server and its fixture, then the floor, every selected operation on both; then what
 * `afterRows` adds (on PostgreSQL the second process). A profiled server is stopped after the rows so that it
 * writes its profile.
 */
async function benchDatabase(
  options: LoadBenchOptions,
  database: DatabaseKind,
  storage: { server: Record<string, string>; floor: string; secretKey: string },
  afterRows?: (first: Target) => Promise<TwoProcessRow[]>,
): Promise<DatabaseRun> {
  const profiles = await profileDirectory(options);
  const profile = profiles === undefined ? undefined : { directory: profiles, name: `${database}-server.cpuprofile` };
  const server = await startServer(options, storage.server, storage.secretKey, profile);
  const fixture = await prepareFixture(server.url, ADMIN_TOKEN, {
    existingViewers: options.existingViewers,
    watchedViewers: options.watchedViewers,
    heartbeatViewers: liveViewers(options),
  });
  const floor = await startFloor(options, storage.floor);
  const first: Target = { process: server, fixture };
  const rows = await benchOperations(
    database,
    options.operations,
    first,
    { process: floor, fixture: floorFixture(fixture, options.existingViewers) },
    settingsOf(options),
  );
  await floor.stop();
  if (profile !== undefined) {
    await server.stop();
    const file = join(profile.directory, profile.name);
    return { rows, twoProcesses: null, profiles: summarizeProfile(database, file, rows) };
  }
  return { rows, twoProcesses: afterRows === undefined ? null : await afterRows(first), profiles: [] };
}

function benchPglite(options: LoadBenchOptions): Promise<DatabaseRun> {
  return scoped(async () => {
    progress("PGlite: starting the server and the floor app, making the data");
    return benchDatabase(options, "pglite", {
      server: { WEBINAR_DATA_DIR: await temporaryDirectory("server") },
      floor: await temporaryDirectory("floor"),
      secretKey: randomBytes(32).toString("hex"),
    });
  });
}

function benchPostgres(options: LoadBenchOptions): Promise<DatabaseRun> {
  return scoped(async () => {
    progress("PostgreSQL: creating the databases, starting the server and the floor app, making the data");
    const serverDatabase = await createRunDatabase(options.postgresUrl, "webinar_bench_load_server");
    defer(() => serverDatabase.drop());
    const floorDatabase = await createRunDatabase(options.postgresUrl, "webinar_bench_load_floor");
    defer(() => floorDatabase.drop());
    // Every process of one database shares the key that seals the API-key secrets.
    const secretKey = randomBytes(32).toString("hex");
    const storage = { DATABASE_URL: serverDatabase.url };
    const secondProcess = async (first: Target) => {
      progress("PostgreSQL: a second server process on the same database");
      const second: Target = { process: await startServer(options, storage, secretKey), fixture: first.fixture };
      return benchTwoProcesses(first, second, settingsOf(options));
    };
    return benchDatabase(
      options,
      "postgres",
      { server: storage, floor: floorDatabase.url, secretKey },
      options.twoProcesses ? secondProcess : undefined,
    );
  });
}

function errorsOf(figures: Figures[]): number {
  return figures.reduce((sum, figure) => sum + figure.errors.total, 0);
}

export async function runLoadBench(options: LoadBenchOptions): Promise<LoadBenchResult> {
  const databases: LoadBenchResult["databases"] = [];
  let twoProcesses: TwoProcessRow[] | null = null;
  const profiles: ProfileRow[] = [];
  for (const database of ["pglite", "postgres"] as const) {
    if (!options.databases.includes(database)) continue;
    const run = await (database === "pglite" ? benchPglite(options) : benchPostgres(options));
    databases.push({ database, operations: run.rows });
    twoProcesses ??= run.twoProcesses;
    profiles.push(...run.profiles);
  }
  const figures = [
    ...databases.flatMap((database) => database.operations.flatMap((row) => [row.server, row.floor])),
    ...(twoProcesses ?? []).flatMap((row) => [row.oneProcess, row.twoProcesses]),
  ];
  return {
    serverMain: options.serverMain,
    node: process.version,
    cores: availableParallelism(),
    settings: {
      ...settingsOf(options),
      quick: options.quick,
      existingViewers: options.existingViewers,
      watchedViewers: options.watchedViewers,
      heartbeatViewers: liveViewers(options),
      profile: options.profile ?? null,
      requestLog: options.requestLog,
    },
    databases,
    twoProcesses,
    profiles: options.profile === undefined ? null : profiles,
    errors: errorsOf(figures),
  };
}
