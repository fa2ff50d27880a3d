/**
 * Runs the checks, one after the other, against a server given by its base URL, and reports each one. Nothing
 * here knows which server it talks to: every check is a request a client could make and an answer it can see.
 */
import { answerChecks } from "./checks/answers";
import { bodyRuleChecks } from "./checks/body-rules";
import { concurrencyChecks } from "./checks/concurrency";
import { exactFigureChecks } from "./checks/exact-figures";
import { fuzzChecks } from "./checks/fuzz";
import { liveDataStateChecks } from "./checks/live-data-state";
import { modelBasedChecks } from "./checks/model-based";
import { signingEveryOperationChecks } from "./checks/signing-every-operation";
import { stateRuleChecks } from "./checks/state-rules";
import { ticketLifecycleChecks } from "./checks/ticket-lifecycle";
import { isolationChecks } from "./checks/isolation";
import { loginTicketChecks } from "./checks/login-tickets";
import { paginationChecks } from "./checks/pagination";
import { replayAndSizeChecks } from "./checks/replay-and-size";
import { routingChecks } from "./checks/routing";
import { signingCanonicalChecks } from "./checks/signing-canonical";
import { signingHeaderChecks } from "./checks/signing-headers";
import { upsertViewerChecks } from "./checks/upsert-viewer";
import { watchDataChecks } from "./checks/watch-data";
import { statusLine, type Answer } from "./answer";
import { CheckFailure, type Check } from "./check";
import { resolveOptions, type ConformanceOptions } from "./options";
import type { CheckResult, ConformanceReport, SkippedCheck } from "./report";
import { createRunContext, type RunContext } from "./run-context";
import { createTransport } from "./transport";

/** Every check, in the order they run; `answers.*` last, as they count the answers of all the others. */
export const allChecks: readonly Check[] = [
  ...signingHeaderChecks,
  ...signingCanonicalChecks,
  ...signingEveryOperationChecks,
  ...replayAndSizeChecks,
  ...routingChecks,
  ...bodyRuleChecks,
  ...fuzzChecks,
  ...upsertViewerChecks,
  ...loginTicketChecks,
  ...ticketLifecycleChecks,
  ...watchDataChecks,
  ...paginationChecks,
  ...isolationChecks,
  ...stateRuleChecks,
  ...liveDataStateChecks,
  ...exactFigureChecks,
  ...concurrencyChecks,
  ...modelBasedChecks,
  ...answerChecks,
];

/** The id and title of every check, e.g. to list them. */
export function listChecks(): Array<{ id: string; title: string }> {
  return allChecks.map(({ id, title }) => ({ id, title }));
}

/** The first answer to a request of this check that was a server error it does not expect, if any. */
function serverError(check: Check, answers: readonly Answer[]): Answer | undefined {
  return answers.find((answer) => answer.status >= 500 && !(check.allows503 === true && answer.status === 503));
}

async function runOne(check: Check, context: RunContext): Promise<CheckResult | SkippedCheck> {
  const { id, title } = check;
  const firstAnswer = context.answers.length;
  try {
    const outcome = await check.run(context);
    const failed = serverError(check, context.answers.slice(firstAnswer));
    if (failed !== undefined)
      throw new CheckFailure(
        `a server error is never a conforming answer: ${failed.request} answered ${statusLine(failed)}`,
      );
    if (typeof outcome === "object") return { id, title, skipped: outcome.skip };
    return { id, title, ok: true, detail: outcome ?? "" };
  } catch (error) {
    const detail =
      error instanceof CheckFailure
        ? error.message
        : `no answer to judge: ${error instanceof Error ? error.message : String(error)}`;
    return { id, title, ok: false, detail };
  }
}

/**
 * Runs the conformance checks against the server at `options.baseUrl` and returns the report; it never throws for
 * a failing server, only for invalid options (a `TypeError`).
 *
 * @example
 * const report = await runConformance({ baseUrl: "http://127.0.0.1:8080", apiKey, apiSecret, ticketCode });
 * console.log(`${report.passed} passed, ${report.failed} failed`);
 * for (const check of report.checks) if (!check.ok) console.log(check.id, check.detail);
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const resolved = resolveOptions(options);
  const selected = allChecks.filter(
    (check) => resolved.only.length === 0 || resolved.only.some((prefix) => check.id.startsWith(prefix)),
  );
  if (selected.length === 0) throw new TypeError(`no check id starts with ${resolved.only.join(" or ")}`);
  const started = Date.now();
  const transport = createTransport(resolved.timeoutMs);
  const context = createRunContext(resolved, transport);
  const checks: CheckResult[] = [];
  const skipped: SkippedCheck[] = [];
  try {
    for (const check of selected) {
      if (options.signal?.aborted === true) break;
      const result = await runOne(check, context);
      if ("skipped" in result) skipped.push(result);
      else checks.push(result);
      options.onCheck?.(result);
    }
  } finally {
    transport.close();
  }
  const passed = checks.filter((check) => check.ok).length;
  return {
    passed,
    failed: checks.length - passed,
    checks,
    skipped,
    durationMs: Date.now() - started,
    seed: resolved.seed,
  };
}
