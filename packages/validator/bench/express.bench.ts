/**
 * `pnpm --filter @org/webinar-validator bench:express` (also part of `pnpm bench`): what `webinarExpress` costs
 * an Express 5 app, measured from outside. Four apps (express-app.ts), each its own process, answer a signed
 * upsertViewer with the same small JSON:
 *
 * - bare Express with `express.json()` only;
 * - the same with `webinarExpress` (signature, timestamp, nonce in the memory store, body schema);
 * - the same with express-openapi-validator on spec/openapi.yaml (the body schema only);
 * - the signature floor: what any middleware that checks this API's signature must at least do (read the body,
 *   hash it, one HMAC compared in constant time), the most a verifier can reach on this machine.
 *
 * autocannon sends every request signed afresh (`setupRequest`), the four apps in turn for a few rounds (the
 * order rotated each round), and checks every answer. Printed: req/s of each app and its ratio to bare Express,
 * the median over the rounds of each round's ratio, so the drift of this shared machine stays out of it; and the
 * app process's CPU time per request (Linux), which neighbours on a shared machine disturb less than req/s. Never a
 * test: figures depend on the machine, so nothing here asserts a time. The apps import the built package, what
 * users import (`pnpm bench` builds first).
 *
 * Options: --rounds <n> (5), --duration <s> per app and round (5), --warmup <s> per app (2), --connections <n> (16).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ANSWER, APP_KINDS, type AppKind, signedUpsertHeaders, UPSERT_BODY, UPSERT_PATH } from "./express-request";
import { median } from "@org/webinar-internal/median";

/** The goal for webinarExpress over bare Express. */
const WEBINAR_TO_BARE_GOAL = 0.9;

const LABELS: Record<AppKind, string> = {
  bare: "bare Express 5, express.json() only",
  webinar: "webinarExpress + express.json()",
  "openapi-validator": "express.json() + express-openapi-validator",
  "signature-floor": "signature floor (body, hash, one HMAC) + express.json()",
};

interface RunningApp {
  kind: AppKind;
  url: string;
  child: ChildProcess;
}

interface Round {
  requestsPerSecond: number;
  /** CPU time of the app's process per answer; NaN where /proc is missing. */
  cpuMicrosPerRequest: number;
}

interface Tally {
  answers: number;
  /** Answers other than 200 with the expected body, by status (a wrong body counts as "body"). */
  wrong: Record<string, number>;
  connectionErrors: number;
}

const APP_SCRIPT = fileURLToPath(new URL("./express-app.ts", import.meta.url));

function options() {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "5" },
      duration: { type: "string", default: "5" },
      warmup: { type: "string", default: "2" },
      connections: { type: "string", default: "16" },
    },
  });
  const whole = (name: string, text: string, minimum: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum) throw new Error(`--${name} must be a whole number >= ${minimum}`);
    return value;
  };
  return {
    rounds: whole("rounds", values.rounds, 1),
    duration: whole("duration", values.duration, 1),
    warmup: whole("warmup", values.warmup, 0),
    connections: whole("connections", values.connections, 1),
  };
}

/** Starts an app's process and waits for the port it prints. */
function startApp(kind: AppKind): Promise<RunningApp> {
  const child = spawn(process.execPath, ["--import", "tsx", APP_SCRIPT, kind], {
    cwd: fileURLToPath(new URL(".", import.meta.url)),
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const port = /listening (\d+)/.exec(output)?.[1];
      if (port !== undefined) resolve({ kind, url: `http://127.0.0.1:${port}`, child });
    });
    child.once("exit", (code) => reject(new Error(`the ${kind} app exited with code ${code} before listening`)));
  });
}

function stopApp(app: RunningApp): Promise<void> {
  if (app.child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => app.child.once("exit", () => resolve()));
  app.child.kill("SIGTERM");
  return exited;
}

// Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) in /proc/<pid>/stat.
const TICKS_PER_SECOND = 100;

/** User plus system CPU seconds of a process so far; NaN off Linux. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Drives one app for `seconds`, every answer checked into `tally`. */
async function drive(app: RunningApp, seconds: number, connections: number, tally: Tally): Promise<Round> {
  const cpuBefore = cpuSeconds(app.child.pid!);
  const answersBefore = tally.answers;
  const requestsPerSecond = await load(app, seconds, connections, tally);
  const cpuMicrosPerRequest = ((cpuSeconds(app.child.pid!) - cpuBefore) * 1e6) / (tally.answers - answersBefore);
  return { requestsPerSecond, cpuMicrosPerRequest };
}

/** autocannon against one app for `seconds`; its requests per second. */
function load(app: RunningApp, seconds: number, connections: number, tally: Tally): Promise<number> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: app.url,
        connections,
        duration: seconds,
        requests: [
          {
            method: "POST",
            path: UPSERT_PATH,
            setupRequest: (request) => ({ ...request, body: UPSERT_BODY, headers: signedUpsertHeaders() }),
            onResponse: (status, body) => {
              tally.answers += 1;
              if (status !== 200 || body !== ANSWER) {
                const key = status === 200 ? "body" : String(status);
                tally.wrong[key] = (tally.wrong[key] ?? 0) + 1;
              }
            },
          },
        ],
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        tally.connectionErrors += result.errors + result.timeouts;
        resolve(result.requests.total / (result.duration || seconds));
      },
    );
  });
}

function versionOf(name: string): string {
  const require = createRequire(import.meta.url);
  return (require(`${name}/package.json`) as { version: string }).version;
}

async function main(): Promise<void> {
  const settings = options();
  const apps = await Promise.all(APP_KINDS.map(startApp));
  const tallies = new Map(APP_KINDS.map((kind) => [kind, { answers: 0, wrong: {}, connectionErrors: 0 } as Tally]));
  const rounds = new Map(APP_KINDS.map((kind) => [kind, [] as Round[]]));
  try {
    if (settings.warmup > 0)
      for (const app of apps) await drive(app, settings.warmup, settings.connections, tallies.get(app.kind)!);
    for (let round = 0; round < settings.rounds; round += 1) {
      // Each round starts with another app, so none is always measured first or last.
      const order = apps.map((_, index) => apps[(index + round) % apps.length]!);
      for (const app of order)
        rounds.get(app.kind)!.push(await drive(app, settings.duration, settings.connections, tallies.get(app.kind)!));
      process.stderr.write(
        `  round ${round + 1}: ${APP_KINDS.map((kind) => `${kind} ${rounds.get(kind)!.at(-1)!.requestsPerSecond.toFixed(0)} req/s`).join(", ")}\n`,
      );
    }
  } finally {
    await Promise.all(apps.map(stopApp));
  }
  const errors = report(settings, rounds, tallies);
  if (errors > 0) process.exitCode = 1;
}

/** Each round's figure of `kind` over bare Express's in the same round, the median over the rounds. */
function ratioToBare(rounds: Map<AppKind, Round[]>, kind: AppKind, figure: (round: Round) => number): number {
  const bare = rounds.get("bare")!;
  return median(rounds.get(kind)!.map((round, index) => figure(round) / figure(bare[index]!)));
}

/** Prints the figures; returns how many apps gave a wrong answer. */
function report(
  settings: ReturnType<typeof options>,
  rounds: Map<AppKind, Round[]>,
  tallies: Map<AppKind, Tally>,
): number {
  const lines = [
    `webinarExpress in an Express ${versionOf("express")} app, measured from outside (Node ${process.version}, ` +
      `${availableParallelism()} cores shared with autocannon), beside express-openapi-validator ${versionOf("express-openapi-validator")}`,
    `autocannon, ${settings.connections} connections, a signed upsertViewer (fresh nonce each), ` +
      `${settings.rounds} rounds x ${settings.duration} s per app after ${settings.warmup} s warm-up.`,
    "req/s: median over the rounds; x bare: median of each round's ratio to bare Express. CPU: the app process's " +
      "user + system CPU per request; x bare (CPU): bare's CPU per request over the app's, the throughput ratio " +
      "were each app given a core of its own.",
    "",
  ];
  const rows: string[][] = [];
  let errors = 0;
  for (const kind of APP_KINDS) {
    const appRounds = rounds.get(kind)!;
    const tally = tallies.get(kind)!;
    const wrong = Object.entries(tally.wrong).map(([status, count]) => `${count}x${status}`);
    if (tally.connectionErrors > 0) wrong.push(`${tally.connectionErrors} connection errors`);
    if (wrong.length > 0) errors += 1;
    rows.push([
      LABELS[kind],
      median(appRounds.map((round) => round.requestsPerSecond)).toFixed(0),
      ratioToBare(rounds, kind, (round) => round.requestsPerSecond).toFixed(2),
      median(appRounds.map((round) => round.cpuMicrosPerRequest)).toFixed(0),
      ratioToBare(rounds, kind, (round) => 1 / round.cpuMicrosPerRequest).toFixed(2),
      appRounds.map((round) => round.requestsPerSecond.toFixed(0)).join(" "),
      String(tally.answers),
      wrong.length === 0 ? "0" : wrong.join(" "),
    ]);
  }
  lines.push(table(["app", "req/s", "x bare", "CPU µs", "x bare (CPU)", "req/s per round", "answers", "errors"], rows));
  const ours = ratioToBare(rounds, "webinar", (round) => round.requestsPerSecond);
  const floor = ratioToBare(rounds, "signature-floor", (round) => round.requestsPerSecond);
  lines.push(
    "",
    `Goal (printed, not asserted): webinarExpress >= ${WEBINAR_TO_BARE_GOAL}x bare Express: ${ours >= WEBINAR_TO_BARE_GOAL ? "met" : "not met"} (${ours.toFixed(2)}x)`,
    `  beside the floor of any signature check on this machine: the signature floor at ${floor.toFixed(2)}x bare, ` +
      `webinarExpress at ${(ours / floor).toFixed(2)}x the floor`,
    errors === 0
      ? "Errors: 0 (every answer 200 with the expected body)"
      : "Errors: some answers were not 200 with the expected body: the figures above are not valid",
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  return errors;
}

/** A text table: the first column left-aligned, the others right-aligned. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ");
  return [header, ...rows].map((cells) => `  ${line(cells)}`).join("\n");
}

await main();
