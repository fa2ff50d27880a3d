/**
 * One row of figures: autocannon drives an operation against one or more targets (the load split evenly), first
 * a warm-up, then the measured run. Every request is built in `setupRequest` (an Open API request: body
 * serialized once, hashed, signed with a fresh nonce and timestamp; a heartbeat: a viewer's body and cookie) and
 * every answer is checked in `onResponse`, warm-up included: a non-200 status, a body that is not the success
 * envelope of the operation, a connection error or a timeout is an error, so a broken server cannot post a good
 * figure.
 */
import autocannon from "autocannon";
import type { Fixture } from "./fixture";
import { isExpectedAnswer, type Operation } from "./operations";
import { cpuSecondsBetween, postgresCpuSeconds, type RunningProcess } from "./processes";

export interface Target {
  process: RunningProcess;
  fixture: Fixture;
}

export interface Errors {
  total: number;
  /** Answers by HTTP status other than 200. */
  byStatus: Record<string, number>;
  /** 200 answers that were not the operation's success envelope. */
  badShape: number;
  /** Connection errors and timeouts, as autocannon counts them. */
  connection: number;
}

export interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the target processes per measured request; null where the platform does not report it. */
  cpuMicrosPerRequest: number | null;
  /**
   * CPU time of this machine's PostgreSQL processes per measured request (the database the targets share, when it
   * runs here); null where the platform does not report it.
   */
  databaseCpuMicrosPerRequest: number | null;
  /** Answers in the measured run. */
  requests: number;
  /** Every answer checked, warm-up included. */
  checked: number;
  errors: Errors;
  /** When the measured run began and ended, in microseconds of the monotonic clock that CPU profiles use. */
  measuredFromMicros: number;
  measuredToMicros: number;
}

export interface RunSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /**
   * Requests per second offered to all the targets together (autocannon's `overallRate`), so that servers are
   * compared at the same load; absent, every connection sends its next request as soon as it has an answer.
   */
  offeredLoad?: number | undefined;
}

interface Tally {
  checked: number;
  errors: Errors;
}

interface Drive {
  requests: number;
  seconds: number;
  latencies: number[];
}

let runCounter = 0;

/** Drives one target for `seconds` with `connections`, checking every answer into `tally`. */
function driveOne(
  operation: Operation,
  target: Target,
  connections: number,
  seconds: number,
  tally: Tally,
  rate: number | undefined,
): Promise<Drive> {
  const nextRequest = operation.requests(target.fixture, `${process.pid}-${(runCounter += 1)}`);
  const latencies: number[] = [];
  let requests = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.process.url,
        connections,
        duration: seconds,
        ...(rate === undefined ? {} : { overallRate: rate }),
        requests: [
          {
            method: "POST",
            path: operation.path,
            setupRequest: (request) => ({ ...request, ...nextRequest() }),
            onResponse: (status, body) => {
              tally.checked += 1;
              if (status !== 200) {
                tally.errors.byStatus[status] = (tally.errors.byStatus[status] ?? 0) + 1;
                tally.errors.total += 1;
              } else if (!isExpectedAnswer(operation, body)) {
                tally.errors.badShape += 1;
                tally.errors.total += 1;
              }
            },
          },
        ],
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        tally.errors.connection += result.errors;
        tally.errors.total += result.errors;
        resolve({ requests, seconds: result.duration, latencies });
      },
    );
    // The tracker emits (client, status, bytes, milliseconds) per answer; its own histogram keeps whole
    // milliseconds, too coarse for the floor's latencies, so the exact times are kept here.
    (instance as NodeJS.EventEmitter).on(
      "response",
      (_client: unknown, _status: number, _bytes: number, milliseconds: number) => {
        requests += 1;
        latencies.push(milliseconds);
      },
    );
  });
}

/** Splits the connections and the offered load evenly over the targets and drives them at once. */
async function drive(
  operation: Operation,
  targets: Target[],
  settings: RunSettings,
  seconds: number,
  tally: Tally,
): Promise<Drive[]> {
  const { connections, offeredLoad } = settings;
  const rate = offeredLoad === undefined ? undefined : Math.max(1, Math.round(offeredLoad / targets.length));
  return Promise.all(
    targets.map((target, index) => {
      const share = Math.floor(connections / targets.length) + (index < connections % targets.length ? 1 : 0);
      return driveOne(operation, target, Math.max(1, share), seconds, tally, rate);
    }),
  );
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

function cpuSeconds(targets: Target[]): number | undefined {
  let total = 0;
  for (const target of targets) {
    const seconds = target.process.cpuSeconds();
    if (seconds === undefined) return undefined;
    total += seconds;
  }
  return total;
}

const perRequestMicros = (seconds: number | undefined, requests: number) =>
  seconds === undefined || requests === 0 ? null : (seconds * 1e6) / requests;

/** Linux's monotonic clock in µs: the clock of `process.hrtime` and of the timestamps in V8's CPU profiles. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

const emptyTally = (): Tally => ({ checked: 0, errors: { total: 0, byStatus: {}, badShape: 0, connection: 0 } });

/** Drives `operation` against `targets` for the warm-up's seconds, measuring nothing. */
export async function warmUp(
  operation: Operation,
  targets: Target[],
  settings: RunSettings,
  tally: Tally = emptyTally(),
): Promise<void> {
  if (settings.warmupSeconds > 0) await drive(operation, targets, settings, settings.warmupSeconds, tally);
}

/** Warms up, then measures `operation` against `targets` together. */
export async function measure(operation: Operation, targets: Target[], settings: RunSettings): Promise<Figures> {
  const tally = emptyTally();
  await warmUp(operation, targets, settings, tally);
  const cpuBefore = cpuSeconds(targets);
  const databaseCpuBefore = postgresCpuSeconds();
  const measuredFromMicros = monotonicMicros();
  const runs = await drive(operation, targets, settings, settings.durationSeconds, tally);
  const measuredToMicros = monotonicMicros();
  const cpuAfter = cpuSeconds(targets);
  const databaseCpuAfter = postgresCpuSeconds();
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const latencies = runs.flatMap((run) => run.latencies).sort((a, b) => a - b);
  return {
    // The targets ran side by side: their rates add up.
    requestsPerSecond: runs.reduce((sum, run) => sum + run.requests / run.seconds, 0),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    cpuMicrosPerRequest: perRequestMicros(
      cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      requests,
    ),
    databaseCpuMicrosPerRequest: perRequestMicros(
      databaseCpuBefore === undefined || databaseCpuAfter === undefined
        ? undefined
        : cpuSecondsBetween(databaseCpuBefore, databaseCpuAfter),
      requests,
    ),
    requests,
    checked: tally.checked,
    errors: tally.errors,
    measuredFromMicros,
    measuredToMicros,
  };
}
