/**
 * Server CPU per request and request rate of the reference server (`pnpm --filter @org/webinar-server bench`).
 * Not a test: it prints figures and asserts nothing.
 *
 * The server runs in a child process (bench/server-process.ts) on PGlite (`memory:`) and on PostgreSQL
 * (127.0.0.1:5432, a database created for the run and dropped after). This process is the load generator: it
 * signs every request afresh (unique nonce, node:crypto) and keeps CONCURRENCY requests in flight over
 * keep-alive connections. Server CPU per request = the child's `process.cpuUsage()` delta (user + system) over
 * the measured phase divided by the requests served; PostgreSQL's own processes are not the server's CPU. The
 * request rate is compared with a bare node:http handler (bench/bare-process.ts) driven the same way in the
 * same run. Targets on PostgreSQL: upsert <= 150 µs, ticket <= 250 µs server CPU per request. Beside them it prints
 * the floors: the bare handler's CPU per request and one bare node-postgres query's client CPU.
 */
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";
import pg from "pg";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 600);
const MEASURED = Number(process.env.BENCH_REQUESTS ?? 4000);
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
// The same server through its Unix-domain socket: on one host it spares the TCP loopback path per query.
const POSTGRES_SOCKET_DIR = process.env.BENCH_POSTGRES_SOCKET_DIR ?? "/var/run/postgresql";
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface Child {
  process: ChildProcess;
  url: string;
  demo?: { apiKey: string; secret: string; ticketCode: string; merchantId: string };
  cpu(): Promise<NodeJS.CpuUsage>;
  stop(): Promise<void>;
}

function startChild(script: string, env: Record<string, string>): Promise<Child> {
  // BENCH_PROFILE_DIR: write a V8 CPU profile of each child there (for finding where server CPU goes).
  const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const child = fork(here(script), [], { env: { ...process.env, ...env }, execArgv: ["--import", "tsx", ...profile], stdio: ["ignore", "ignore", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
    child.on("message", function ready(message: { kind: string; url: string; demo?: Child["demo"] }) {
      if (message.kind !== "ready") return;
      child.off("message", ready);
      resolve({
        process: child,
        url: message.url,
        ...(message.demo ? { demo: message.demo } : {}),
        cpu: () =>
          new Promise((done) => {
            child.on("message", function cpu(answer: { kind: string; cpu: NodeJS.CpuUsage }) {
              if (answer.kind !== "cpu") return;
              child.off("message", cpu);
              done(answer.cpu);
            });
            child.send("cpu");
          }),
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners("exit");
            child.once("exit", () => done());
            child.send("stop");
          }),
      });
    });
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(url: string, path: string, headers: Record<string, string>, body: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path, method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function signedHeaders(apiKey: string, secret: string, path: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString("hex");
  const canonical = [apiKey, "POST", path, timestamp, nonce, createHash("sha256").update(body).digest("hex")].join("\n");
  return {
    "content-type": "application/json",
    "x-api-key": apiKey,
    "x-timestamp": timestamp,
    "x-nonce": nonce,
    "x-signature": createHmac("sha256", secret).update(canonical).digest("hex"),
  };
}

type RequestFactory = (index: number) => { path: string; body: string };

/** Sends `count` requests, CONCURRENCY at a time; returns the elapsed seconds and the non-200 answers. */
async function drive(url: string, credentials: { apiKey: string; secret: string }, count: number, next: RequestFactory): Promise<{ seconds: number; failures: Map<number, number> }> {
  let issued = 0;
  const failures = new Map<number, number>();
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (issued < count) {
      const { path, body } = next(issued++);
      const status = await send(url, path, signedHeaders(credentials.apiKey, credentials.secret, path, body), body);
      if (status !== 200) failures.set(status, (failures.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, failures };
}

interface Figure {
  label: string;
  cpuMicros: number;
  rate: number;
  failures: string;
}

async function measure(label: string, child: Child, credentials: { apiKey: string; secret: string }, next: RequestFactory): Promise<Figure> {
  await drive(child.url, credentials, WARMUP, next);
  const before = await child.cpu();
  const { seconds, failures } = await drive(child.url, credentials, MEASURED, (index) => next(WARMUP + index));
  const after = await child.cpu();
  const cpuMicros = (after.user - before.user + after.system - before.system) / MEASURED;
  return { label, cpuMicros, rate: MEASURED / seconds, failures: [...failures].map(([status, n]) => `${n}x${status}`).join(" ") || "-" };
}

async function benchStorage(label: string, env: Record<string, string>, figures: Figure[]): Promise<void> {
  const child = await startChild("./server-process.ts", { PORT: "0", WEBINAR_SEED_DEMO: "true", ...env });
  try {
    const demo = child.demo!;
    const run = `${label}-${randomBytes(3).toString("hex")}`;
    figures.push(await measure(`${label} upsert (new viewer)`, child, demo, (i) => ({ path: "/api/v1/open/viewers/upsert", body: JSON.stringify({ externalUserId: `${run}-${i}` }) })));
    // Tickets for the viewers just created, round robin, so no two requests wait for one viewer's row lock.
    const uidList = await viewerUids(child, demo, run, Math.min(WARMUP + MEASURED, 2000));
    figures.push(
      await measure(`${label} ticket`, child, demo, (i) => ({
        path: "/api/v1/open/viewers/login-tickets",
        body: JSON.stringify({ uid: uidList[i % uidList.length], ticketCode: demo.ticketCode }),
      })),
    );
    figures.push(await measure(`${label} upsert (existing viewer)`, child, demo, (i) => ({ path: "/api/v1/open/viewers/upsert", body: JSON.stringify({ externalUserId: `${run}-${i % 2000}` }) })));
  } finally {
    await child.stop();
  }
}

/** The uids of the first `count` viewers created by the upsert phase (upserting them again returns them). */
async function viewerUids(child: Child, demo: { apiKey: string; secret: string }, run: string, count: number): Promise<number[]> {
  const uids: number[] = [];
  const target = new URL(child.url);
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) => {
        const body = JSON.stringify({ externalUserId: `${run}-${i + j}` });
        const path = "/api/v1/open/viewers/upsert";
        return new Promise<number>((resolve, reject) => {
          const req = request({ host: target.hostname, port: target.port, path, method: "POST", agent, headers: { ...signedHeaders(demo.apiKey, demo.secret, path, body), "content-length": Buffer.byteLength(body) } }, (res) => {
            let text = "";
            res.on("data", (chunk) => (text += chunk));
            res.on("end", () => resolve((JSON.parse(text) as { data: { viewer: { uid: number } } }).data.viewer.uid));
          });
          req.on("error", reject);
          req.end(body);
        });
      }),
    );
    uids.push(...batch);
  }
  return uids;
}

/** Client CPU of one bare node-postgres query (bench/pg-query-process.ts), for reading the server's figures. */
function pgQueryFloor(label: string, databaseUrl: string): string {
  const output = execFileSync(process.execPath, ["--import", "tsx", here("./pg-query-process.ts")], {
    env: { ...process.env, DATABASE_URL: databaseUrl, CONCURRENCY: String(CONCURRENCY), MEASURED: String(MEASURED) },
    encoding: "utf8",
  });
  const { cpuMicros } = JSON.parse(output) as { cpuMicros: number };
  return `${label}: a bare node-postgres query costs its client ${cpuMicros.toFixed(0)} µs CPU`;
}

const floors: string[] = [];

async function main(): Promise<void> {
  const figures: Figure[] = [];
  const bare = await startChild("./bare-process.ts", {});
  const bareFigure = await measure("bare node:http", bare, { apiKey: "k", secret: "s" }, () => ({ path: "/bare", body: '{"externalUserId":"x"}' }));
  await bare.stop();

  const storages = (process.env.BENCH_STORAGE ?? "pglite,postgres,postgres-socket").split(",");
  if (storages.includes("pglite")) await benchStorage("pglite", { WEBINAR_DATA_DIR: "memory:" }, figures);
  if (!storages.some((storage) => storage.startsWith("postgres"))) return report(bareFigure, figures);

  // A database of its own per variant (each first start seeds the demo merchant the bench signs as).
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  const variants: [string, (name: string) => string][] = [
    ["postgres", (name) => Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${name}` }).toString()],
    ["postgres-socket", (name) => `postgresql://${new URL(POSTGRES_ADMIN_URL).username}@/${name}?host=${encodeURIComponent(POSTGRES_SOCKET_DIR)}`],
  ];
  try {
    for (const [variant, urlOf] of variants) {
      if (!storages.includes(variant)) continue;
      const name = `webinar_bench_${randomBytes(4).toString("hex")}`;
      await admin.query(`create database "${name}"`);
      try {
        const label = variant === "postgres" ? "postgres (tcp 127.0.0.1)" : "postgres (unix socket)";
        await benchStorage(label, { DATABASE_URL: urlOf(name), WEBINAR_SECRET_KEY: randomBytes(32).toString("hex") }, figures);
        floors.push(pgQueryFloor(label, urlOf(name)));
      } finally {
        await admin.query(`drop database if exists "${name}" with (force)`);
      }
    }
  } finally {
    await admin.end();
  }

  report(bareFigure, figures);
}

function report(bareFigure: Figure, figures: Figure[]): void {
  const rows = [bareFigure, ...figures].map((figure) => ({
    case: figure.label,
    "server CPU µs/request": figure.cpuMicros.toFixed(0),
    "requests/s": figure.rate.toFixed(0),
    "rate vs bare node:http": (figure.rate / bareFigure.rate).toFixed(3),
    "non-200": figure.failures,
  }));
  console.log(`\nconcurrency ${CONCURRENCY}, ${WARMUP} warm-up + ${MEASURED} measured requests per case, Node ${process.version}`);
  console.table(rows);
  console.log("targets on PostgreSQL: upsert <= 150 µs, ticket <= 250 µs server CPU per request");
  // What no server can go below on this machine: answering HTTP at all, and one query through the driver.
  console.log(`floors: the bare node:http handler costs ${bareFigure.cpuMicros.toFixed(0)} µs CPU per request`);
  for (const floor of floors) console.log(`        ${floor}`);
  agent.destroy();
}

await main();
