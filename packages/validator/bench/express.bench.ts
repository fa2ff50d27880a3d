/**
 * `pnpm --filter @org/webinar-validator bench:express` (also part of `pnpm bench`): what `webinarExpress` costs
 * an Express 5 app, measured from outside. Three apps (express-app.ts), each its own process, answer a signed
 * upsertViewer with the same small JSON:
 *
 * - bare Express with `express.json()` only;
 * - the same with `webinarExpress` (signature, timestamp, nonce in the memory store, body schema);
 * - the same with express-openapi-validator on spec/openapi.yaml (the body schema only).
 *
 * autocannon sends every request signed afresh (`setupRequest`), the three apps in turn for a few rounds (the
 * order rotated each round), and checks every answer. Printed: req/s of each app and its ratio to bare Express,
 * the median over the rounds of each round's ratio, so the drift of this shared machine stays out of it. Never a
 * test: figures depend on the machine, so nothing here asserts a time. The apps import the built package, what
 * users import (`pnpm bench` builds first).
 *
 * Options: --rounds <n> (5), --duration <s> per app and round (5), --warmup <s> per app (2), --connections <n> (16).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { ANSWER, APP_KINDS, type AppKind, signedUpsertHeaders, UPSERT_BODY, UPSERT_PATH } from "./express-request";

/** The goal for webinarExpress over bare Express. */
const WEBINAR_TO_BARE_GOAL = 0.9;

const LABELS: Record<AppKind, string> = {
  bare: "bare Express 5, express.json() only",
  webinar: "webinarExpress + express.json()",
  "openapi-validator": "express.json() + express-openapi-validator",
};

interface RunningApp {
  kind: AppKind;
  url: string;
  child: ChildProcess;
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

/** Drives one app for `seconds`; its requests per second, every answer checked into `tally`. */
function drive(app: RunningApp, seconds: number, connections: number, tally: Tally): Promise<number> {
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function versionOf(name: string): string {
  const require = createRequire(import.meta.url);
  return (require(`${name}/package.json`) as { version: string }).version;
}

async function main(): Promise<void> {
  const settings = options();
  const apps = await Promise.all(APP_KINDS.map(startApp));
  const tallies = new Map(APP_KINDS.map((kind) => [kind, { answers: 0, wrong: {}, connectionErrors: 0 } as Tally]));
  const rates = new Map(APP_KINDS.map((kind) => [kind, [] as number[]]));
  try {
    if (settings.warmup > 0)
      for (const app of apps) await drive(app, settings.warmup, settings.connections, tallies.get(app.kind)!);
    for (let round = 0; round < settings.rounds; round += 1) {
      // Each round starts with another app, so none is always measured first or last.
      const order = apps.map((_, index) => apps[(index + round) % apps.length]!);
      for (const app of order)
        rates.get(app.kind)!.push(await drive(app, settings.duration, settings.connections, tallies.get(app.kind)!));
      process.stderr.write(
        `  round ${round + 1}: ${APP_KINDS.map((kind) => `${kind} ${rates.get(kind)!.at(-1)!.toFixed(0)} req/s`).join(", ")}\n`,
      );
    }
  } finally {
    await Promise.all(apps.map(stopApp));
  }
  const bare = rates.get("bare")!;
  const lines = [
    `webinarExpress in an Express ${versionOf("express")} app, measured from outside (Node ${process.version}, ${availableParallelism()} cores shared with autocannon)`,
    `autocannon, ${settings.connections} connections, a signed upsertViewer (fresh nonce each), ${settings.rounds} rounds x ${settings.duration} s per app after ${settings.warmup} s warm-up; ` +
      "req/s: median over the rounds; ratio: median of each round's ratio to bare Express",
    "",
  ];
  const width = Math.max(...Object.values(LABELS).map((label) => label.length));
  let errors = 0;
  for (const kind of APP_KINDS) {
    const appRates = rates.get(kind)!;
    const ratio = median(appRates.map((rate, round) => rate / bare[round]!));
    const tally = tallies.get(kind)!;
    const wrong = Object.entries(tally.wrong).map(([status, count]) => `${count}x${status}`);
    if (tally.connectionErrors > 0) wrong.push(`${tally.connectionErrors} connection errors`);
    errors += wrong.length;
    const goal =
      kind === "webinar"
        ? ` (goal >= ${WEBINAR_TO_BARE_GOAL}x${ratio >= WEBINAR_TO_BARE_GOAL ? ": met" : ": not met"})`
        : "";
    const version = kind === "openapi-validator" ? ` ${versionOf("express-openapi-validator")}` : "";
    lines.push(
      `  ${`${LABELS[kind]}${version}`.padEnd(width + 8)}  ${median(appRates).toFixed(0).padStart(6)} req/s  ` +
        `${ratio.toFixed(2)}x bare${goal}   rounds: ${appRates.map((rate) => rate.toFixed(0)).join(", ")}` +
        `; ${tally.answers} answers checked${wrong.length > 0 ? `, WRONG: ${wrong.join(", ")}` : ""}`,
    );
  }
  lines.push(
    "",
    errors === 0
      ? "Errors: 0 (every answer 200 with the expected body)"
      : "Errors: some answers were not 200 with the expected body: the figures above are not valid",
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  if (errors > 0) process.exitCode = 1;
}

await main();
