/**
 * One starter in the data-directory lock race (run as its own process: `node --import tsx lock-contender.ts <dir>
 * <start at ms>`): waits for the common start time, tries to lock, prints `won` or `locked <pid>`, and a winner
 * holds the lock a while and then exits WITHOUT releasing it, as a killed server would, leaving a stale lock.
 */
import { DataDirLockedError, lockDataDir } from "../../src/data-dir-lock";

const [dataDir, startAt, holdMs] = process.argv.slice(2);
while (Date.now() < Number(startAt)) await new Promise((resolve) => setTimeout(resolve, 1));
try {
  await lockDataDir(dataDir!);
  process.stdout.write("won\n");
  await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
  process.exit(0);
} catch (error) {
  if (!(error instanceof DataDirLockedError)) throw error;
  process.stdout.write(`locked ${error.pid}\n`);
}
