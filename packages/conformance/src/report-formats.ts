/**
 * The report as people and machines read it: a line per check and a summary line for a terminal, the JSON file of
 * `--json`, and JUnit XML (one test case per check, `<failure>` with the detail, `<skipped>` with the reason) for
 * CI systems.
 */
import { isSkipped, type CheckResult, type ConformanceReport, type SkippedCheck } from "./report";

/** `ok   signing.correct  a correctly signed request -> accepted (200)`, the detail on the next line when it failed. */
export function formatCheckLine(result: CheckResult | SkippedCheck): string {
  if (isSkipped(result)) return `skip ${result.id}  ${result.title}\n       ${result.skipped}`;
  const line = `${result.ok ? "ok  " : "FAIL"} ${result.id}  ${result.title}`;
  return result.ok ? line : `${line}\n       ${result.detail}`;
}

/** `470 checks: 468 passed, 2 failed, 5 skipped in 23.4 s`. */
export function formatSummary(report: ConformanceReport): string {
  const total = report.passed + report.failed;
  return `${total} checks: ${report.passed} passed, ${report.failed} failed, ${report.skipped.length} skipped in ${(report.durationMs / 1000).toFixed(1)} s`;
}

/** The `--json` file: `{ passed, failed, checks: [{ id, title, ok, detail }], skipped: [{ id, title, skipped }] }`. */
export function toJson(report: ConformanceReport): string {
  const { passed, failed, checks, skipped } = report;
  return `${JSON.stringify({ passed, failed, checks, skipped }, null, 2)}\n`;
}

/**
 * XML 1.0 allows no control character but tab, line feed and carriage return, no lone surrogate and neither U+FFFE
 * nor U+FFFF, not even escaped.
 */
function isXmlCharacter(character: string): boolean {
  const code = character.codePointAt(0)!;
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
  return (code < 0xd800 || code > 0xdfff) && code !== 0xfffe && code !== 0xffff;
}

function xml(text: string): string {
  return Array.from(text, (character) => (isXmlCharacter(character) ? character : "\ufffd"))
    .join("")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** Every check and skipped check as a JUnit test case, its group (`signing`, `body`) as the class name. */
export function toJUnitXml(report: ConformanceReport): string {
  const cases = [...report.checks, ...report.skipped].map((result) => {
    const open = `    <testcase classname="webinar-conformance.${xml(result.id.split(".")[0]!)}" name="${xml(`${result.id} ${result.title}`)}"`;
    if (isSkipped(result)) return `${open}>\n      <skipped message="${xml(result.skipped)}"/>\n    </testcase>`;
    if (result.ok) return `${open}/>`;
    return `${open}>\n      <failure message="${xml(result.detail)}"/>\n    </testcase>`;
  });
  const total = report.passed + report.failed + report.skipped.length;
  const counts = `tests="${total}" failures="${report.failed}" errors="0" skipped="${report.skipped.length}" time="${(report.durationMs / 1000).toFixed(3)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="webinar-conformance" ${counts}>`,
    `  <testsuite name="webinar-conformance" ${counts}>`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
