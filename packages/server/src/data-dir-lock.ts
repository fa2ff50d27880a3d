/**
 * One server per data directory. The embedded database (PGlite) and the key file have no locking of their own:
 * two servers on one directory would both serve, and the writes of one of them would be lost. So the directory
 * holds a lock file naming the process that owns it, and a second server refuses to start.
 *
 * The lock file is created whole and atomically (written under a unique name, then hard-linked to its place,
 * which fails when it exists). A lock whose process is gone (killed with SIGKILL, the machine restarted) is stale
 * and is taken over, but only by the one starter that wins the takeover: removing a lock file is allowed only to
 * the claimant of the takeover file named after that lock's token, itself claimed the same way. The claimant
 * re-reads the lock before removing it, and nobody else can remove a lock of that token meanwhile, so two
 * starters never both take over. Liveness is judged with signal 0, so the lock assumes that every server of the
 * directory runs on this machine.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { readTextIfExists } from "./read-if-exists";

/** The lock file's name inside the data directory. */
export const LOCK_FILE = "webinar-server.lock";

/** Another live process holds the data directory. */
export class DataDirLockedError extends Error {
  override readonly name = "DataDirLockedError";
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the data directory ${dataDir} is in use by process ${pid}: stop that server, or set WEBINAR_DATA_DIR to another directory (if process ${pid} is not a webinar-server, remove ${path.join(dataDir, LOCK_FILE)})`,
    );
  }
}

/** A held lock; `release` removes it (only if it is still this lock). */
export interface DataDirLock {
  readonly file: string;
  release(): Promise<void>;
}

interface Holder {
  pid: number;
  token: string;
}

/** Tokens of the locks this process holds: a lock naming this pid is live only if its token is one of them. */
// Module-level on purpose: a lock names a process (its pid), so what this process holds is a fact of the process,
// shared by every server it runs.
const heldTokens = new Set<string>();

class HeldByLiveProcess extends Error {
  constructor(readonly pid: number) {
    super(`held by process ${pid}`);
  }
}

/** How often a starter waits for another starter that is taking over the same stale lock right now. */
const TAKEOVER_WAITS = 200;
const TAKEOVER_WAIT_MS = 10;

function isAlive(holder: Holder): boolean {
  if (holder.pid < 1) return false;
  if (holder.pid === process.pid) return heldTokens.has(holder.token);
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Creates `file` with `text` as a whole, or returns false when it exists. */
async function createExclusive(file: string, text: string, token: string): Promise<boolean> {
  const draft = `${file}.${token}.draft`;
  await writeFile(draft, text, { flag: "wx", mode: 0o600 });
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(draft);
  }
}

/** The holder named by a lock file (pid 0 when it is not a lock this module wrote), or undefined when it is gone. */
async function readHolder(file: string): Promise<Holder | undefined> {
  const text = await readTextIfExists(file);
  if (text === undefined) return undefined;
  const match = /^pid (\d+)\ntoken ([0-9a-f]+)\n/.exec(text);
  return match === null ? { pid: 0, token: "unreadable" } : { pid: Number(match[1]), token: match[2]! };
}

/** Claims `file` for `me`: creates it, or takes it over when its holder is gone; throws when a live process holds it. */
async function claim(file: string, me: Holder): Promise<void> {
  const text = `pid ${me.pid}\ntoken ${me.token}\n`;
  for (let wait = 0; ; ) {
    if (await createExclusive(file, text, me.token)) return;
    const holder = await readHolder(file);
    if (holder === undefined) continue;
    if (isAlive(holder)) throw new HeldByLiveProcess(holder.pid);
    const takeover = `${file}.takeover-${holder.token}`;
    try {
      await claim(takeover, me);
    } catch (error) {
      // Another starter is taking over this very lock now: once it is done, the lock is its own.
      if (!(error instanceof HeldByLiveProcess) || ++wait > TAKEOVER_WAITS) throw error;
      await new Promise((resolve) => setTimeout(resolve, TAKEOVER_WAIT_MS));
      continue;
    }
    try {
      if ((await readHolder(file))?.token === holder.token) await unlink(file);
    } finally {
      await unlink(takeover);
    }
  }
}

/**
 * Locks `dataDir` (created when missing, mode 0700) for this process until `release`.
 *
 * @example
 * const lock = await lockDataDir("/srv/webinar/.data"); // throws DataDirLockedError when another server runs there
 * try { ... } finally { await lock.release(); }
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  const me: Holder = { pid: process.pid, token: randomBytes(16).toString("hex") };
  try {
    await claim(file, me);
  } catch (error) {
    if (error instanceof HeldByLiveProcess) throw new DataDirLockedError(dataDir, error.pid);
    throw error;
  }
  heldTokens.add(me.token);
  return {
    file,
    async release() {
      heldTokens.delete(me.token);
      if ((await readHolder(file))?.token === me.token) await unlink(file);
    },
  };
}
