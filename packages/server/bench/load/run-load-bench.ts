/**
 * The whole run: per database, one server and one floor app with the same data, every operation measured on
 * both in turn; on PostgreSQL then a second server process on the same database for the two-process line.
 * Everything started is stopped and every database made is dropped, also when a step fails or the run is
 * interrupted (`stopEverything`). With `--profile` the server runs under `node --cpu-prof`; once it has stopped
 * (and written its profile), the profile's top self-time entries of the measured seconds are summarized.
 */
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
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
import { type Figures, measure, type RunSettings, type Target, warmUp } from "./measure";
import { median } from "@org/webinar-internal/median";
import {
  BATCHED_HEARTBEAT_FLOOR_PATH,
  type Operation,
  operationById,
  type OperationId,
  TWO_PROCESS_OPERATIONS,
} from "./operations";
import type { DatabaseKind, LoadBenchOptions } from "./options";
import { createBenchDatabase } from "../bench-database";
import { type OtlpSink, startOtlpSink } from "./otlp-sink";
import { type RunningProcess, startProcess } from "./processes";

export interface OperationRow {
  operation: OperationId;
  label: string;
  server: Figures;
  floor: Figures;
  /** Server requests per second over the floor's. */
  serverToFloor: number;
  /** The heartbeat's batched floor (floor-app.ts) and the server's ratio to it; absent for other operations. */
  batchedFloor?: Figures;
  serverToBatchedFloor?: number;
}

export interface TwoProcessRow {
  operation: OperationId;
  label: string;
  oneProcess: Figures;
  twoProcesses: Figures;
  /** Two processes' requests per second over one's. */
  ratio: number;
}

/** One round of a `--tracing` row: the ordinary server, the variant and the floor, each measured once. */
export interface TracingRound {
  ordinary: Figures;
  variant: Figures;
  floor: Figures;
  /** The feature's cost in this round (Variant.cost). */
  cost: number;
  /** The same three at the row's offered load, each served as many requests as it was offered. */
  atEqualLoad: { ordinary: Figures; variant: Figures; floor: Figures };
  /**
   * The feature's cost in CPU at the offered load: Variant.cost of the requests each server answers per second of
   * CPU, its own and PostgreSQL's together; null where the platform does not report CPU time.
   */
  cpuCost: number | null;
}

/** CPU per request at a row's offered load: the server's own, and PostgreSQL's. */
export interface EqualLoadCpu {
  server: number | null;
  database: number | null;
}

/**
 * One operation on the ordinary server (request log on, tracing off) and on a variant of it (tracing on, sampled
 * or not, the request log off, or the same server again for the noise), both beside the floor, over `--rounds`
 * rounds; the figures are medians.
 */
export interface TracingRow {
  database: DatabaseKind;
  operation: OperationId;
  label: string;
  /** What the variant server changes. */
  variant: string;
  rounds: TracingRound[];
  ordinaryToFloor: number;
  variantToFloor: number;
  /** Server CPU per request at full load; null where the platform does not report it. */
  cpuMicrosPerRequest: { ordinary: number | null; variant: number | null };
  /** The share of throughput the feature costs: tracing's, or the request log's; the noise's for NOISE_VARIANT. */
  cost: number;
  /** The most `cost` may be; null for NOISE_VARIANT, which has no feature. */
  goal: number | null;
  /** Requests per second offered to each server for the CPU figures: a share of the ordinary server's throughput. */
  offeredLoad: number;
  /** CPU per request at the offered load (medians of the rounds). */
  cpuAtEqualLoad: { ordinary: EqualLoadCpu; variant: EqualLoadCpu; floor: EqualLoadCpu };
  /** The median of the rounds' CPU costs; null where the platform does not report CPU time. */
  cpuCost: number | null;
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
  /** With `--tracing`: every operation with tracing off and on; and the trace exports the sink received. */
  tracing: { rows: TracingRow[]; exports: number; bytes: number } | null;
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

const describeCpu = (figures: Figures) =>
  `${figures.cpuMicrosPerRequest?.toFixed(0) ?? "?"} + ${figures.databaseCpuMicrosPerRequest?.toFixed(0) ?? "?"}`;

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
    const row: OperationRow = {
      operation: operation.id,
      label: operation.label,
      server: serverFigures,
      floor: floorFigures,
      serverToFloor: serverFigures.requestsPerSecond / floorFigures.requestsPerSecond,
    };
    if (operation.id === "heartbeat") {
      row.batchedFloor = await measure({ ...operation, path: BATCHED_HEARTBEAT_FLOOR_PATH }, [floor], settings);
      row.serverToBatchedFloor = serverFigures.requestsPerSecond / row.batchedFloor.requestsPerSecond;
    }
    progress(
      `  [${database}] ${operation.label}: server ${describe(serverFigures)}, floor ${describe(floorFigures)}` +
        (row.batchedFloor === undefined ? "" : `, batched floor ${describe(row.batchedFloor)}`),
    );
    rows.push(row);
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
  tracing: TracingRow[];
}

/** A server variant of `--tracing`, measured against the ordinary server. */
export interface Variant {
  name: string;
  env: (sinkUrl: string) => Record<string, string>;
  /** The feature's cost from the requests per second of the ordinary server and of the variant in one round. */
  cost: (ordinary: number, variant: number) => number;
  goal: number | null;
}

/**
 * A second ordinary server, the same build and settings, measured as a variant: its "cost" is what two identical
 * servers differ by in the same rounds, the bench's noise on this machine at that moment. A feature's cost within
 * it is not a measured cost.
 */
export const NOISE_VARIANT = "ordinary again (noise)";

/** The share of throughput a variant loses against the ordinary server: tracing's cost, and the noise's. */
const throughputLost = (ordinary: number, variant: number) => 1 - variant / ordinary;

const traced = (sinkUrl: string) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_SERVICE_NAME: "webinar-bench" });

/**
 * Tracing every span, tracing 10% (the sampler decides per trace), the request log's own cost, and the noise
 * (NOISE_VARIANT).
 */
const VARIANTS: readonly Variant[] = [
  { name: "traced, every span", env: traced, cost: throughputLost, goal: 0.2 },
  {
    name: "traced, 10% sampled",
    env: (sinkUrl) => ({
      ...traced(sinkUrl),
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.1",
    }),
    cost: throughputLost,
    goal: 0.05,
  },
  {
    name: "request log off",
    env: () => ({ WEBINAR_REQUEST_LOG: "false" }),
    // The ordinary server writes the log: its cost is what the server without it gains.
    cost: (ordinary, off) => 1 - ordinary / off,
    goal: 0.05,
  },
  { name: NOISE_VARIANT, env: () => ({}), cost: throughputLost, goal: null },
];

/** The variants a `--tracing` run measures: without the request log, none that switches it off. */
export function tracingVariants(options: Pick<LoadBenchOptions, "requestLog">): readonly Variant[] {
  return VARIANTS.filter((variant) => variant.name !== "request log off" || options.requestLog);
}

/**
 * The data each variant serves: on PostgreSQL the ordinary server's own database (processes share one); on PGlite,
 * whose directory one process opens, a copy of the ordinary server's directory taken while it is stopped.
 */
async function variantStorages(
  storage: Record<string, string>,
  ordinary: RunningProcess,
  count: number,
): Promise<Record<string, string>[]> {
  const directory = storage.WEBINAR_DATA_DIR;
  if (directory === undefined) return Array.from({ length: count }, () => storage);
  await ordinary.stop();
  const copies: Record<string, string>[] = [];
  for (let index = 0; index < count; index += 1) {
    const copy = await temporaryDirectory("variant");
    await cp(directory, copy, { recursive: true });
    copies.push({ ...storage, WEBINAR_DATA_DIR: copy });
  }
  return copies;
}

/**
 * The offered load at which `--tracing` compares CPU per request, as a share of the ordinary server's throughput in
 * the main rows: low enough that every variant normally answers all of it (the report marks a round where one did
 * not), so each server does the same work in the same time and CPU per request is compared at the same pace (at
 * full load, a slower server also waits differently).
 */
const EQUAL_LOAD_SHARE = 0.5;

/** `items` turned left by `by` places: round r starts with the r-th, so no server is always measured first. */
const turned = <T>(items: readonly T[], by: number): T[] =>
  items.map((_, index) => items[(index + by) % items.length]!);

/**
 * `--tracing`: the variants start beside the ordinary server, on the same data (variantStorages). Each operation is
 * then measured in rounds, after an unmeasured warm-up pass of each variant: every server and the floor once per
 * round, in an order turned by one each round, so that a variant and the ordinary server meet the same moment of
 * the machine, warm, on the same data; each at full load, then at the same offered load (EQUAL_LOAD_SHARE) for its
 * CPU per request. A variant's cost is the median of its rounds' costs, each from the ordinary server and the
 * variant of one round; so is its CPU cost.
 */
async function benchTracing(
  options: LoadBenchOptions,
  database: DatabaseKind,
  ordinary: Target,
  floor: Target,
  storage: { server: Record<string, string>; secretKey: string },
  sink: OtlpSink,
  mainRows: readonly OperationRow[],
): Promise<TracingRow[]> {
  const variants = tracingVariants(options);
  progress(`${database}: starting ${variants.map((variant) => variant.name).join(", ")} beside the ordinary server`);
  const storages = await variantStorages(storage.server, ordinary.process, variants.length);
  const ordinaryProcess =
    storage.server.WEBINAR_DATA_DIR === undefined
      ? ordinary.process
      : await startServer(options, storage.server, storage.secretKey);
  const servers: { name: string; target: Target }[] = [
    { name: "ordinary", target: { process: ordinaryProcess, fixture: ordinary.fixture } },
  ];
  for (const [index, variant] of variants.entries()) {
    const process = await startServer(options, { ...storages[index]!, ...variant.env(sink.url) }, storage.secretKey);
    servers.push({ name: variant.name, target: { process, fixture: ordinary.fixture } });
  }
  const measured = [...servers, { name: "floor", target: floor }];
  const rows: TracingRow[] = [];
  for (const operation of options.operations.map(operationById)) {
    // The ordinary server and the floor met this operation in the main rows; the variants meet it here. One
    // unmeasured pass of each first, so that round 1 does not measure the variants cold and the others warm.
    for (const { target } of servers.slice(1)) {
      await warmUp(operation, [target], settingsOf(options));
      await sink.settled();
    }
    const capacity = mainRows.find((row) => row.operation === operation.id)!.server.requestsPerSecond;
    const offeredLoad = Math.max(1, Math.round(capacity * EQUAL_LOAD_SHARE));
    const atEqualLoad = { ...settingsOf(options), warmupSeconds: 0, offeredLoad };
    const rounds: RoundFigures[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      const figures: RoundFigures = { atCapacity: new Map(), atEqualLoad: new Map() };
      for (const { name, target } of turned(measured, round)) {
        figures.atCapacity.set(name, await measure(operation, [target], settingsOf(options)));
        // A traced server's last exports are not the next one's load.
        await sink.settled();
        figures.atEqualLoad.set(name, await measure(operation, [target], atEqualLoad));
        await sink.settled();
      }
      progress(
        `  [${database}] ${operation.label}, round ${round + 1} of ${options.rounds}: ` +
          measured.map(({ name }) => `${name} ${describe(figures.atCapacity.get(name)!)}`).join(", ") +
          `; CPU µs/req at ${offeredLoad} req/s (server + database): ` +
          measured.map(({ name }) => `${name} ${describeCpu(figures.atEqualLoad.get(name)!)}`).join(", "),
      );
      rounds.push(figures);
    }
    for (const variant of variants) rows.push(tracingRow(database, operation, variant, rounds, offeredLoad));
  }
  return rows;
}

/** A round's figures by server name ("ordinary", a variant's name, "floor"): at full load, and at the offered load. */
interface RoundFigures {
  atCapacity: Map<string, Figures>;
  atEqualLoad: Map<string, Figures>;
}

/** Server plus database CPU per request; null where the platform does not report either. */
const totalCpu = (figures: Figures) =>
  figures.cpuMicrosPerRequest === null || figures.databaseCpuMicrosPerRequest === null
    ? null
    : figures.cpuMicrosPerRequest + figures.databaseCpuMicrosPerRequest;

/** A variant's row: its rounds, and the medians over them. */
function tracingRow(
  database: DatabaseKind,
  operation: Operation,
  variant: Variant,
  measuredRounds: RoundFigures[],
  offeredLoad: number,
): TracingRow {
  const rounds = measuredRounds.map(({ atCapacity, atEqualLoad }): TracingRound => {
    const ordinary = atCapacity.get("ordinary")!;
    const on = atCapacity.get(variant.name)!;
    const equal = {
      ordinary: atEqualLoad.get("ordinary")!,
      variant: atEqualLoad.get(variant.name)!,
      floor: atEqualLoad.get("floor")!,
    };
    const [ordinaryCpu, variantCpu] = [totalCpu(equal.ordinary), totalCpu(equal.variant)];
    return {
      ordinary,
      variant: on,
      floor: atCapacity.get("floor")!,
      cost: variant.cost(ordinary.requestsPerSecond, on.requestsPerSecond),
      atEqualLoad: equal,
      // Requests per CPU second stand for requests per second: what a server can answer when CPU is what runs out.
      cpuCost: ordinaryCpu === null || variantCpu === null ? null : variant.cost(1 / ordinaryCpu, 1 / variantCpu),
    };
  });
  const medianOf = (figure: (round: TracingRound) => number | null) => {
    const values = rounds.map(figure).filter((value) => value !== null);
    return values.length === 0 ? null : median(values);
  };
  const equalLoadCpu = (server: (round: TracingRound) => Figures): EqualLoadCpu => ({
    server: medianOf((round) => server(round).cpuMicrosPerRequest),
    database: medianOf((round) => server(round).databaseCpuMicrosPerRequest),
  });
  return {
    database,
    operation: operation.id,
    label: operation.label,
    variant: variant.name,
    rounds,
    ordinaryToFloor: medianOf((round) => round.ordinary.requestsPerSecond / round.floor.requestsPerSecond)!,
    variantToFloor: medianOf((round) => round.variant.requestsPerSecond / round.floor.requestsPerSecond)!,
    cpuMicrosPerRequest: {
      ordinary: medianOf((round) => round.ordinary.cpuMicrosPerRequest),
      variant: medianOf((round) => round.variant.cpuMicrosPerRequest),
    },
    cost: medianOf((round) => round.cost)!,
    goal: variant.goal,
    offeredLoad,
    cpuAtEqualLoad: {
      ordinary: equalLoadCpu((round) => round.atEqualLoad.ordinary),
      variant: equalLoadCpu((round) => round.atEqualLoad.variant),
      floor: equalLoadCpu((round) => round.atEqualLoad.floor),
    },
    cpuCost: medianOf((round) => round.cpuCost),
  };
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
  sink?: OtlpSink,
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
  const floorTarget: Target = { process: floor, fixture: floorFixture(fixture, options.existingViewers) };
  const rows = await benchOperations(database, options.operations, first, floorTarget, settingsOf(options));
  const tracing =
    sink === undefined ? [] : await benchTracing(options, database, first, floorTarget, storage, sink, rows);
  await floor.stop();
  if (profile !== undefined) {
    await server.stop();
    const file = join(profile.directory, profile.name);
    return { rows, twoProcesses: null, profiles: summarizeProfile(database, file, rows), tracing };
  }
  return { rows, twoProcesses: afterRows === undefined ? null : await afterRows(first), profiles: [], tracing };
}

function benchPglite(options: LoadBenchOptions, sink?: OtlpSink): Promise<DatabaseRun> {
  return scoped(async () => {
    progress("PGlite: starting the server and the floor app, making the data");
    const storage = {
      server: { WEBINAR_DATA_DIR: await temporaryDirectory("server") },
      floor: await temporaryDirectory("floor"),
      secretKey: randomBytes(32).toString("hex"),
    };
    return benchDatabase(options, "pglite", storage, undefined, sink);
  });
}

function benchPostgres(options: LoadBenchOptions, sink?: OtlpSink): Promise<DatabaseRun> {
  return scoped(async () => {
    progress("PostgreSQL: creating the databases, starting the server and the floor app, making the data");
    const serverDatabase = await createBenchDatabase("load_server", options.postgresUrl);
    defer(() => serverDatabase.drop());
    const floorDatabase = await createBenchDatabase("load_floor", options.postgresUrl);
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
      sink,
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
  const tracingRows: TracingRow[] = [];
  const sink = options.tracing ? await startOtlpSink() : undefined;
  let received = { exports: 0, bytes: 0 };
  try {
    for (const database of ["pglite", "postgres"] as const) {
      if (!options.databases.includes(database)) continue;
      const run = await (database === "pglite" ? benchPglite(options, sink) : benchPostgres(options, sink));
      databases.push({ database, operations: run.rows });
      twoProcesses ??= run.twoProcesses;
      profiles.push(...run.profiles);
      tracingRows.push(...run.tracing);
    }
    if (sink !== undefined) received = await sink.received();
  } finally {
    await sink?.close();
  }
  const figures = [
    ...databases.flatMap((database) => database.operations.flatMap((row) => [row.server, row.floor])),
    ...(twoProcesses ?? []).flatMap((row) => [row.oneProcess, row.twoProcesses]),
    // A round's ordinary server and floor figures are shared by its variants' rows: each object counted once.
    ...new Set(
      tracingRows.flatMap((row) => row.rounds.flatMap((round) => [round.ordinary, round.variant, round.floor])),
    ),
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
    tracing: sink === undefined ? null : { rows: tracingRows, ...received },
    errors: errorsOf(figures),
  };
}
