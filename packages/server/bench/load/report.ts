/**
 * The figures for people (tables and goal lines) and for machines (one JSON document). Goals are printed beside
 * the figures, never asserted: the machine and its neighbours decide too much of them.
 */
import type { Errors, Figures } from "./measure";
import { operationById, type OperationId, PAGE_HEARTBEAT_INTERVAL_SECONDS } from "./operations";
import {
  type EqualLoadCpu,
  type LoadBenchResult,
  NOISE_VARIANT,
  type OperationRow,
  type ProfileRow,
  type TracingRound,
  type TracingRow,
} from "./run-load-bench";

/** Server/floor throughput ratio every Open API operation should reach on PostgreSQL. */
export const SERVER_TO_FLOOR_GOAL = 0.4;
/** Server/floor throughput ratio of the heartbeats, on each database. */
export const HEARTBEAT_TO_FLOOR_GOAL = 0.5;
/** Most heartbeat p99 latency of the server, as a multiple of the floor's. */
export const HEARTBEAT_P99_GOAL = 3;
/** Two server processes on one PostgreSQL database over one, where the database has spare cores. */
export const TWO_PROCESS_GOAL = 1.6;
/** Most server CPU per request on PostgreSQL (the server process only), for the writes every login flow makes. */
export const SERVER_CPU_GOALS_MICROS: Readonly<Partial<Record<OperationId, number>>> = {
  upsertNewViewer: 250,
  upsertExistingViewer: 250,
  issueLoginTicket: 250,
  heartbeat: 150,
};

const DATABASE_TITLES = {
  pglite: "PGlite (the server's embedded default, a temporary data directory; the floor: PGlite in process)",
  postgres: "PostgreSQL (a database made for the run; the floor: a pg Pool on a database of its own)",
};

function fixed(value: number | null, digits: number): string {
  return value === null || Number.isNaN(value) ? "-" : value.toFixed(digits);
}

function errorText(errors: Errors): string {
  if (errors.total === 0) return "0";
  const parts = Object.entries(errors.byStatus).map(([status, count]) => `${count}x${status}`);
  if (errors.badShape > 0) parts.push(`${errors.badShape} bad shape`);
  if (errors.connection > 0) parts.push(`${errors.connection} connection`);
  return parts.join(" ");
}

/** A text table; by default the first column (the operation) left-aligned, the figures right-aligned. */
function table(header: string[], rows: string[][], leftAligned: boolean[] = [true]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        leftAligned[column] === true ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].map((text) => `  ${text}`).join("\n");
}

const percent = (share: number | null) => (share === null ? "n/a" : `${(share * 100).toFixed(0)}%`);

/**
 * A feature's cost beside its goal. One run tells a cost apart from its goal only by more than the noise row of
 * the same operation (two identical servers) moved in any of its rounds: nearer than that, the verdict is printed
 * but marked as within the noise, where another run may well turn it.
 *
 * @example
 * costVerdict(0.07, 0.05, 0.25); // "<= 5% NOT met, within the noise (±25%)"
 */
export function costVerdict(cost: number, goal: number, noise: number | undefined): string {
  const verdict = `<= ${percent(goal)} ${cost <= goal ? "met" : "NOT met"}`;
  return noise === undefined || Math.abs(cost - goal) > noise
    ? verdict
    : `${verdict}, within the noise (±${percent(noise)})`;
}

type NoiseRow = Pick<TracingRow, "database" | "operation" | "variant"> & {
  rounds: readonly Pick<TracingRound, "cost">[];
};

/**
 * The noise of each operation on each database: the largest move of its noise row's rounds, either way; undefined
 * where the run has no noise row for that operation.
 */
export function noiseOfOperations(
  rows: readonly NoiseRow[],
): (row: Pick<TracingRow, "database" | "operation">) => number | undefined {
  const noise = new Map<string, number>();
  const key = (row: Pick<TracingRow, "database" | "operation">) => `${row.database} ${row.operation}`;
  for (const row of rows.filter((row) => row.variant === NOISE_VARIANT))
    noise.set(key(row), Math.max(...row.rounds.map((round) => Math.abs(round.cost))));
  return (row) => noise.get(key(row));
}

const figureCells = (figures: Figures) => [
  fixed(figures.requestsPerSecond, 0),
  fixed(figures.p50Ms, 2),
  fixed(figures.p99Ms, 2),
  fixed(figures.cpuMicrosPerRequest, 0),
];

interface GoalItem {
  label: string;
  value: number | null;
  met: boolean;
}

/** The viewers whose heartbeats a rate of heartbeats per second carries at the page's interval. */
export function viewersAtPageInterval(requestsPerSecond: number): number {
  return requestsPerSecond * PAGE_HEARTBEAT_INTERVAL_SECONDS;
}

function rowLabel(row: OperationRow, heartbeatViewers: number): string {
  return row.operation === "heartbeat" ? `${row.label} (${heartbeatViewers} viewers)` : row.label;
}

function heartbeatLine(row: OperationRow): string {
  const viewers = (figures: Figures) =>
    `${fixed(figures.requestsPerSecond, 0)} heartbeats/s = ${fixed(viewersAtPageInterval(figures.requestsPerSecond), 0)} viewers`;
  const batched =
    row.batchedFloor === undefined
      ? ""
      : `, batched floor ${viewers(row.batchedFloor)}, ${errorText(row.batchedFloor.errors)} errors`;
  return [
    `  Viewers per process at the page's ${PAGE_HEARTBEAT_INTERVAL_SECONDS} s interval: server ${viewers(row.server)}, ` +
      `floor ${viewers(row.floor)}${batched}; p99 server/floor ${fixed(row.server.p99Ms / row.floor.p99Ms, 1)}x`,
    `  Heartbeat server/floor: ${fixed(row.serverToFloor, 2)} against one UPDATE per heartbeat, ` +
      `${fixed(row.serverToBatchedFloor ?? null, 2)} against the same heartbeats group-committed`,
  ].join("\n");
}

/** Where the profiled server spent its busy time in one row's measured seconds. */
function profileLines(profile: ProfileRow): string[] {
  const { summary } = profile;
  const busy = summary.windowMicros === 0 ? Number.NaN : (summary.busyMicros / summary.windowMicros) * 100;
  return [
    "",
    `CPU profile of the server, ${profile.database}, ${operationById(profile.operation).label}, measured seconds: ` +
      `busy ${fixed(summary.busyMicros / 1e6, 1)} s of ${fixed(summary.windowMicros / 1e6, 1)} s sampled (${fixed(busy, 0)} %)`,
    `  ${profile.file}`,
    table(
      ["self % of busy", "self ms", "function", "location"],
      summary.entries.map((entry) => [
        fixed(entry.share * 100, 1),
        fixed(entry.selfMicros / 1000, 0),
        entry.functionName,
        entry.location,
      ]),
      // The figures right-aligned, the names left-aligned.
      [false, false, true, true],
    ),
  ];
}

function goalLine(goal: string, items: GoalItem[], digits: number): string {
  if (items.length === 0) return `${goal}: not measured`;
  const missed = items.filter((item) => !item.met);
  return missed.length === 0
    ? `${goal}: met`
    : `${goal}: not met by ${missed.map((item) => `${item.label} ${fixed(item.value, digits)}`).join(", ")}`;
}

/** What was measured, and how to read it. */
function introLines(result: LoadBenchResult): string[] {
  const { settings } = result;
  const lines = [
    `Load benchmark of ${result.serverMain} (Node ${result.node})`,
    `${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per row; ` +
      `${settings.existingViewers} existing viewers, detail page of a finalized webinar with ${settings.watchedViewers} watched viewers` +
      (settings.heartbeatViewers > 0
        ? `; heartbeats round ${settings.heartbeatViewers} viewers of a live webinar, each with its own watch and playback session made before the runs`
        : ""),
    `${result.cores} cores (os.availableParallelism()), shared by autocannon, the server process(es), the floor app and PostgreSQL:` +
      " the absolute figures are this machine's; compare ratios measured in one run.",
    "CPU = user + system CPU of the measured process(es) per request (on PostgreSQL the database's own processes are not counted).",
    "The floor neither verifies a signature nor records a nonce; every server request records its nonce (in the database unless" +
      " REDIS_URL is set), a write that the floor's read-only rows (existing viewer, overview, detail page) do not make.",
    "The floor's heartbeat is one UPDATE of the session's row; it reads no cookie and credits no totals. Its batched floor" +
      " group-commits the same UPDATE as the server commits its batches (one statement per batch).",
    `The server's console request log (one batched row per Open API request) is ${settings.requestLog ? "on" : "off (--request-log off)"}.`,
  ];
  if (settings.profile !== null)
    lines.push(
      `Profiled run (--profile ${settings.profile}): the server ran under node --cpu-prof, which costs it time; compare its figures with other profiled runs only.`,
    );
  return lines;
}

/** One table per database: the server and the floor, row by row. */
function databaseLines(result: LoadBenchResult): string[] {
  const { settings } = result;
  const lines: string[] = [];
  for (const { database, operations } of result.databases) {
    lines.push("", DATABASE_TITLES[database]);
    lines.push(
      table(
        [
          "operation",
          "server req/s",
          "p50 ms",
          "p99 ms",
          "CPU µs",
          "floor req/s",
          "p50 ms",
          "p99 ms",
          "CPU µs",
          "server/floor",
          "errors (server | floor)",
        ],
        operations.map((row) => [
          rowLabel(row, settings.heartbeatViewers),
          ...figureCells(row.server),
          ...figureCells(row.floor),
          fixed(row.serverToFloor, 2),
          `${errorText(row.server.errors)} | ${errorText(row.floor.errors)}`,
        ]),
      ),
    );
    const heartbeat = operations.find((row) => row.operation === "heartbeat");
    if (heartbeat !== undefined) lines.push(heartbeatLine(heartbeat));
  }
  return lines;
}

/** Two server processes against one, on PostgreSQL. */
function twoProcessLines(result: LoadBenchResult): string[] {
  const lines: string[] = [];
  if (result.twoProcesses !== null) {
    lines.push("", "Two server processes on one PostgreSQL database (load split across both) against one:");
    lines.push(
      table(
        [
          "operation",
          "one req/s",
          "p50 ms",
          "p99 ms",
          "two req/s",
          "p50 ms",
          "p99 ms",
          "two/one",
          "errors (one | two)",
        ],
        result.twoProcesses.map((row) => [
          row.label,
          ...figureCells(row.oneProcess).slice(0, 3),
          ...figureCells(row.twoProcesses).slice(0, 3),
          `${fixed(row.ratio, 2)}x`,
          `${errorText(row.oneProcess.errors)} | ${errorText(row.twoProcesses.errors)}`,
        ]),
      ),
    );
  }
  return lines;
}

/** The share of its offered load a server must answer for its CPU figures to count as taken at that load. */
const HELD_LOAD_SHARE = 0.9;

/**
 * `--tracing`: each operation on the ordinary server and on each variant (tracing every span, tracing 10%, the
 * request log off, the noise), measured in rounds beside the floor, with the feature's cost (the median of its
 * rounds', each round's shown too) beside its goal; the noise row has none.
 */
function tracingLines(result: LoadBenchResult): string[] {
  if (result.tracing === null) return [];
  const { rows, exports, bytes } = result.tracing;
  const noiseOf = noiseOfOperations(rows);
  const cpu = ({ server, database }: EqualLoadCpu) => `${fixed(server, 0)} + ${fixed(database, 0)}`;
  // A server that fell behind the offered load did less work in the same time: its round is marked.
  const roundCpuCost = (row: TracingRow, round: TracingRound) =>
    percent(round.cpuCost) +
    ([round.atEqualLoad.ordinary, round.atEqualLoad.variant].some(
      (figures) => figures.requestsPerSecond < row.offeredLoad * HELD_LOAD_SHARE,
    )
      ? "*"
      : "");
  const rounds = rows[0]?.rounds.length ?? 0;
  return [
    "",
    `Costs: the ordinary server (request log on, tracing off) and each variant, started side by side on the same data, and the floor, measured in ${rounds} round${rounds === 1 ? "" : "s"} of a turning order (medians):`,
    table(
      [
        "operation",
        "database",
        "variant",
        "ordinary/floor",
        "variant/floor",
        "cost (each round)",
        "goal",
        "offered req/s",
        "CPU µs/req: variant (ordinary, floor)",
        "CPU cost (each round)",
      ],
      rows.map((row) => [
        row.label,
        row.database,
        row.variant,
        fixed(row.ordinaryToFloor, 2),
        fixed(row.variantToFloor, 2),
        `${percent(row.cost)} (${row.rounds.map((round) => percent(round.cost)).join(", ")})`,
        row.goal === null ? "(none)" : costVerdict(row.cost, row.goal, noiseOf(row)),
        fixed(row.offeredLoad, 0),
        `${cpu(row.cpuAtEqualLoad.variant)} (${cpu(row.cpuAtEqualLoad.ordinary)}, ${cpu(row.cpuAtEqualLoad.floor)})`,
        `${percent(row.cpuCost)} (${row.rounds.map((round) => roundCpuCost(row, round)).join(", ")})`,
      ]),
      [true, true, true],
    ),
    "  cost per round: tracing's = 1 - traced req/s / ordinary req/s; the request log's = 1 - ordinary req/s / log off req/s",
    `  ${NOISE_VARIANT}: a second ordinary server, the same build and settings, its cost taken as tracing's; what two`,
    "  identical servers differ by in the same rounds, so a cost within it is this machine's noise, not the feature's;",
    "  a verdict within the noise: the cost is nearer its goal than the noise row moved in its largest round",
    "  CPU: each server offered the same load (half the ordinary server's throughput), its CPU per request as server + PostgreSQL;",
    "  the CPU cost is the same formula over requests per CPU second (server and PostgreSQL together); * a server answered",
    `  less than ${HELD_LOAD_SHARE * 100}% of the offered load in that round, so its CPU was not taken at the same load`,
    `  the sink received ${exports} trace exports (${(bytes / 1_048_576).toFixed(1)} MiB)`,
  ];
}

/** The goals, each met or not, and whether every answer was right. */
function goalLines(result: LoadBenchResult): string[] {
  const postgres = result.databases.find((database) => database.database === "postgres")?.operations ?? [];
  const cpuGoals = postgres.filter((row) => SERVER_CPU_GOALS_MICROS[row.operation] !== undefined);
  const heartbeats = result.databases.flatMap(({ database, operations }) =>
    operations.filter((row) => row.operation === "heartbeat").map((row) => ({ database, row })),
  );
  return [
    "",
    "Goals (printed, not asserted):",
    `  ${goalLine(
      `every Open API server/floor ratio >= ${SERVER_TO_FLOOR_GOAL} on PostgreSQL`,
      postgres
        .filter((row) => row.operation !== "heartbeat")
        .map((row) => ({
          label: row.label,
          value: row.serverToFloor,
          met: row.serverToFloor >= SERVER_TO_FLOOR_GOAL,
        })),
      2,
    )}`,
    `  ${goalLine(
      `heartbeat server/floor ratio >= ${HEARTBEAT_TO_FLOOR_GOAL} on each database`,
      heartbeats.map(({ database, row }) => ({
        label: database,
        value: row.serverToFloor,
        met: row.serverToFloor >= HEARTBEAT_TO_FLOOR_GOAL,
      })),
      2,
    )}`,
    `  ${goalLine(
      `heartbeat p99 <= ${HEARTBEAT_P99_GOAL}x the floor's`,
      heartbeats.map(({ database, row }) => {
        const ratio = row.server.p99Ms / row.floor.p99Ms;
        return { label: database, value: ratio, met: ratio <= HEARTBEAT_P99_GOAL };
      }),
      1,
    )}`,
    `  ${goalLine(
      `two processes >= ${TWO_PROCESS_GOAL}x one where the database has spare cores (here ${result.cores} cores for everything)`,
      (result.twoProcesses ?? []).map((row) => ({
        label: row.label,
        value: row.ratio,
        met: row.ratio >= TWO_PROCESS_GOAL,
      })),
      2,
    )}`,
    `  ${goalLine(
      `server CPU per request on PostgreSQL: ${Object.entries(SERVER_CPU_GOALS_MICROS)
        .map(([id, micros]) => `${operationById(id as OperationId).label} <= ${micros} µs`)
        .join(", ")}`,
      cpuGoals.map((row) => ({
        label: row.label,
        value: row.server.cpuMicrosPerRequest,
        met:
          row.server.cpuMicrosPerRequest !== null &&
          row.server.cpuMicrosPerRequest <= SERVER_CPU_GOALS_MICROS[row.operation]!,
      })),
      0,
    )}`,
    "",
    result.errors === 0
      ? "Errors: 0 (every answer checked: status 200 and the operation's success envelope)"
      : `Errors: ${result.errors} (non-200 answers, wrong envelopes, connection errors or timeouts): the figures above are not valid`,
  ];
}

/** The human-readable report. */
export function textReport(result: LoadBenchResult): string {
  const lines = [...introLines(result), ...databaseLines(result), ...twoProcessLines(result), ...tracingLines(result)];
  for (const profile of result.profiles ?? []) lines.push(...profileLines(profile));
  lines.push(...goalLines(result));
  return `${lines.join("\n")}\n`;
}

/** The same figures and the goals as one JSON document (NaN, for a row without answers, becomes null). */
export function jsonReport(result: LoadBenchResult): string {
  const goals = {
    openApiServerToFloorOnPostgres: SERVER_TO_FLOOR_GOAL,
    heartbeatServerToFloor: HEARTBEAT_TO_FLOOR_GOAL,
    heartbeatP99OverFloor: HEARTBEAT_P99_GOAL,
    twoProcessesOverOne: TWO_PROCESS_GOAL,
    serverCpuMicrosOnPostgres: SERVER_CPU_GOALS_MICROS,
  };
  // The viewers one process carries at the page's interval, per database where the heartbeats were measured.
  const heartbeatViewersPerProcess = result.databases.flatMap(({ database, operations }) =>
    operations
      .filter((row) => row.operation === "heartbeat")
      .map((row) => ({
        database,
        server: viewersAtPageInterval(row.server.requestsPerSecond),
        floor: viewersAtPageInterval(row.floor.requestsPerSecond),
        batchedFloor: row.batchedFloor === undefined ? null : viewersAtPageInterval(row.batchedFloor.requestsPerSecond),
      })),
  );
  return `${JSON.stringify({ ...result, goals, heartbeatViewersPerProcess }, null, 2)}\n`;
}
