/**
 * One starter in the data-directory lock race, run as its own process:
 * `node --import tsx lock-contender.ts <dir> <start at ms> <round dir> <starters in the round>`. It waits for the
 * common start time, tries to lock, prints `won` or `locked <pid>`, and marks its attempt done in the round's
 * directory. A winner holds the lock until every starter of its round has marked its attempt, then exits WITHOUT
 * releasing it, as a killed server would, leaving a stale lock for the next round. Holding until then, not for a
 * fixed time, keeps a starter that boots late on a loaded machine from finding this round's lock already stale
 * (it would rightly take it over: a second winner, but not a simultaneous one).
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DataDirLockedError, lockDataDir } from "../../src/data-dir-lock";

const [dataDir, startAt, roundDir, starters] = process.argv.slice(2);
/** Longest a winner waits for the rest of its round; the test fails on a missing answer long before. */
const MAX_HOLD_MS = 120_000;

async function markAttempted(): Promise<void> {
  await mkdir(roundDir!, { recursive: true });
  await writeFile(path.join(roundDir!, String(process.pid)), "");
}

while (Date.now() < Number(startAt)) await new Promise((resolve) => setTimeout(resolve, 1));
try {
  await lockDataDir(dataDir!);
  process.stdout.write("won\n");
  await markAttempted();
  const holdUntil = Date.now() + MAX_HOLD_MS;
  while ((await readdir(roundDir!)).length < Number(starters) && Date.now() < holdUntil)
    await new Promise((resolve) => setTimeout(resolve, 20));
  process.exit(0);
} catch (error) {
  if (!(error instanceof DataDirLockedError)) throw error;
  process.stdout.write(`locked ${error.pid}\n`);
  await markAttempted();
}
