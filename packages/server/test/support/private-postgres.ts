/**
 * A PostgreSQL server of the test's own, from the Debian binaries (initdb + pg_ctl into a temporary directory),
 * which a test may stop and start under a running server without touching the machine's shared PostgreSQL.
 * As root the binaries run as the `postgres` user (runuser), with the directory owned by it.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

function binaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => path.join(root, version, "bin")).find((bin) => existsSync(path.join(bin, "pg_ctl")));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface PrivatePostgres {
  url: string;
  start(): Promise<void>;
  /** `fast` ends connections and stops; `immediate` is a crash. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** The ids of the postmaster and of every process it started (to freeze them all with SIGSTOP). */
  processIds(): Promise<number[]>;
  destroy(): Promise<void>;
}

/** Whether the Debian PostgreSQL binaries are installed. */
export const privatePostgresAvailable = binaries() !== undefined;

export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binaries();
  if (bin === undefined) throw new Error("no PostgreSQL binaries under /usr/lib/postgresql");
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(os.tmpdir(), "webinar-pg-"));
  const dataDir = path.join(dir, "data");
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const exec = (command: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", path.join(bin, command), ...args])
      : run(path.join(bin, command), args);
  await exec("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (args: string[]) => exec("pg_ctl", ["-D", dataDir, ...args]);
  const instance: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => void (await ctl(["-o", options, "-l", path.join(dir, "log"), "-w", "start"])),
    stop: async (mode = "fast") => void (await ctl(["-m", mode, "-w", "stop"])),
    async processIds() {
      const postmaster = Number((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n", 1)[0]);
      const { stdout: children } = await run("ps", ["-o", "pid=", "--ppid", String(postmaster)]);
      return [
        postmaster,
        ...children
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map(Number),
      ];
    },
    async destroy() {
      await ctl(["-m", "immediate", "-w", "stop"]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  await instance.start();
  return instance;
}
