/**
 * The processes under load, started the way an operator starts them: `node <script>` on a free port with an
 * environment, ready once `GET /healthz` answers 200, stopped with SIGTERM. The bench knows nothing else about
 * them, so a server of another checkout can be measured the same way.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** This checkout's built server (`pnpm build`), the process a bench measures unless told another. */
export const BUILT_SERVER_MAIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

export interface RunningProcess {
  readonly url: string;
  readonly pid: number;
  /** User plus system CPU seconds the process has used so far (undefined where /proc is missing). */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

export interface ProcessSpec {
  /** What the process is called in messages. */
  name: string;
  /** Arguments of `node`: options, then the script. */
  nodeArguments: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  startTimeoutMs?: number;
}

/** A port that was free a moment ago (the process binds it itself, as PORT says). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

// Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) in /proc/<pid>/stat.
const TICKS_PER_SECOND = 100;

/** utime + stime of every thread of the process; undefined off Linux. */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * utime + stime of each PostgreSQL process of this machine (the postmaster, its backends and its background
 * workers: every process whose command is `postgres`), by pid, so that a figure can count the database's work
 * beside the server's; undefined off Linux. Compare two readings with {@link cpuSecondsBetween}.
 */
export function postgresCpuSeconds(): Map<number, number> | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const seconds = new Map<number, number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8") !== "postgres\n") continue;
    } catch {
      continue; // Gone since the listing.
    }
    const used = processCpuSeconds(Number(entry));
    if (used !== undefined) seconds.set(Number(entry), used);
  }
  return seconds;
}

/**
 * The CPU seconds the processes of `after` used since `before`: a process started in between counts from zero, and
 * one that exited in between (a pool closing an idle connection) is left out, with whatever it used meanwhile.
 */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** The process's resident memory now (VmRSS of /proc/<pid>/status), in bytes; undefined off Linux. */
export function processResidentBytes(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}

async function waitUntilHealthy(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`exited with code ${child.exitCode} before it was ready:\n${output()}`);
    try {
      const answer = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (answer.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready within ${timeoutMs} ms:\n${output()}`);
}

/** Starts the process on a free port and waits until it is healthy; its stdout (the access log) is discarded. */
export async function startProcess(spec: ProcessSpec): Promise<RunningProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, spec.nodeArguments, {
    env: { ...spec.env, PORT: String(port), HOST: "127.0.0.1" },
    cwd: spec.cwd,
    stdio: ["ignore", "ignore", "pipe"],
  });
  // The last few kilobytes of stderr explain a start that failed.
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(killer);
  };
  try {
    await waitUntilHealthy(url, child, spec.startTimeoutMs ?? 60_000, () => stderr);
  } catch (error) {
    await stop();
    throw new Error(
      `${spec.name} (node ${spec.nodeArguments.join(" ")}) ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { url, pid: child.pid!, cpuSeconds: () => processCpuSeconds(child.pid!), stop };
}
