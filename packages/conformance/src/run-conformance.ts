/**
 * Runs the checks, one after the other, against a server given by its base URL, and reports each one. Nothing
 * here knows which server it talks to: every check is a request a client could make and an answer it can see.
 */
import { answerChecks } from "./checks/answers";
import { bodyRuleChecks } from "./checks/body-rules";
import { isolationChecks } from "./checks/isolation";
import { loginTicketChecks } from "./checks/login-tickets";
import { paginationChecks } from "./checks/pagination";
import { replayAndSizeChecks } from "./checks/replay-and-size";
import { routingChecks } from "./checks/routing";
import { signingCanonicalChecks } from "./checks/signing-canonical";
import { signingHeaderChecks } from "./checks/signing-headers";
import { upsertViewerChecks } from "./checks/upsert-viewer";
import { watchDataChecks } from "./checks/watch-data";
import { CheckFailure, type Check } from "./check";
import { resolveOptions, type ConformanceOptions } from "./options";
import type { CheckResult, ConformanceReport, SkippedCheck } from "./report";
import { createRunContext, type RunContext } from "./run-context";
import { createTransport } from "./transport";

/** Every check, in the order they run; `answers.*` last, as they count the answers of all the others. */
export const allChecks: readonly Check[] = [
  ...signingHeaderChecks,
  ...signingCanonicalChecks,
  ...replayAndSizeChecks,
  ...routingChecks,
  ...bodyRuleChecks,
  ...upsertViewerChecks,
  ...loginTicketChecks,
  ...watchDataChecks,
  ...paginationChecks,
  ...isolationChecks,
  ...answerChecks,
];

/** The id and title of every check, e.g. to list them. */
export function listChecks(): Array<{ id: string; title: string }> {
  return allChecks.map(({ id, title }) => ({ id, title }));
}

async function runOne(check: Check, context: RunContext): Promise<CheckResult | SkippedCheck> {
  const { id, title } = check;
  try {
    const outcome = await check.run(context);
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
      const result = await runOne(check, context);
      if ("skipped" in result) skipped.push(result);
      else checks.push(result);
      options.onCheck?.(result);
    }
  } finally {
    transport.close();
  }
  const passed = checks.filter((check) => check.ok).length;
  return { passed, failed: checks.length - passed, checks, skipped, durationMs: Date.now() - started };
}
