/**
 * Black-box conformance checks for any Webinar Open API server: `runConformance` sends the requests a client can
 * send (signed correctly and signed wrongly, bodies the spec accepts and bodies it refuses) and judges every answer
 * by the spec. The `webinar-conformance` command line tool is the package's `bin` (src/cli.ts).
 *
 * @example
 * ```ts
 * import { runConformance, toJUnitXml } from "@org/webinar-conformance";
 *
 * const report = await runConformance({ baseUrl, apiKey, apiSecret, ticketCode });
 * if (report.failed > 0) console.error(report.checks.filter((check) => !check.ok));
 * ```
 */
export { runConformance, listChecks } from "./run-conformance";
export type { Credentials } from "./credentials";
export type { ConformanceOptions } from "./options";
export type {
  ConformanceSetup,
  LiveAction,
  PlaybackSession,
  PlaybackSubject,
  SetupHookName,
  SetupMerchant,
  WebinarState,
} from "./setup-hooks";
export type { CheckResult, ConformanceReport, SkippedCheck } from "./report";
export { formatCheckLine, formatSummary, toJson, toJUnitXml } from "./report-formats";
