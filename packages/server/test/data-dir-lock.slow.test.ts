/**
 * The data-directory lock under a real race: several processes start at the same moment against a stale lock
 * (left by a holder that exited without releasing it, as after SIGKILL). In every round exactly one takes it
 * over and the others are told its pid; the winner then, once every starter of the round has tried, exits without
 * releasing, so each round starts stale.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const run = promisify(execFile);
const CONTENDER = fileURLToPath(new URL("./support/lock-contender.ts", import.meta.url));
const REPOSITORY_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const ROUNDS = 12;
const CONTENDERS = 4;

let scratch: string | undefined;
afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

it(`${ROUNDS} rounds of ${CONTENDERS} simultaneous starters on a stale lock: exactly one wins each round`, async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "webinar-lock-race-"));
  const dataDir = path.join(scratch, "data");
  const contend = async (startAt: number, round: number, starters: number) => {
    const roundDir = path.join(scratch!, `round-${round}`);
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", CONTENDER, dataDir, String(startAt), roundDir, String(starters)],
      { cwd: REPOSITORY_ROOT },
    );
    return stdout.trim();
  };
  // Round 0: one holder that leaves a stale lock behind.
  expect(await contend(Date.now(), 0, 1)).toBe("won");
  const winners: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Every contender waits for the same moment, well after all of them have booted.
    const startAt = Date.now() + 3000;
    const answers = await Promise.all(Array.from({ length: CONTENDERS }, () => contend(startAt, round, CONTENDERS)));
    const won = answers.filter((answer) => answer === "won").length;
    winners.push(won);
    expect(answers.filter((answer) => answer !== "won").every((answer) => /^locked \d+$/.test(answer))).toBe(true);
  }
  console.log(`data-directory lock race: winners per round ${winners.join(", ")}`);
  expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
}, 300_000);
