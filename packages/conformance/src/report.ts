/** The outcome of a run: one entry per check, in the order they ran. */

/** A check that ran. `detail` says what was expected and what came back when it failed, or what was seen. */
export interface CheckResult {
  id: string;
  title: string;
  ok: boolean;
  detail: string;
}

/** A check that could not run, and why (a missing option, or nothing on the server to check it on). */
export interface SkippedCheck {
  id: string;
  title: string;
  skipped: string;
}

export interface ConformanceReport {
  /** Number of checks that passed. */
  passed: number;
  /** Number of checks that failed. */
  failed: number;
  checks: CheckResult[];
  skipped: SkippedCheck[];
  /** Wall-clock time of the run in ms. */
  durationMs: number;
  /** The seed of the `fuzz.*` checks: pass it as `seed` (`--seed`) to send the same bodies again. */
  seed: number;
}

/** Whether an entry of `onCheck` is a skipped check. */
export function isSkipped(result: CheckResult | SkippedCheck): result is SkippedCheck {
  return "skipped" in result;
}
