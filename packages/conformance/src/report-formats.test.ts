import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "./report";
import { formatCheckLine, formatSummary, toJson, toJUnitXml } from "./report-formats";

const report: ConformanceReport = {
  passed: 1,
  failed: 1,
  checks: [
    { id: "signing.correct", title: "a correctly signed request -> accepted (200)", ok: true, detail: "" },
    { id: "body.x.001", title: 'a "quoted" <title> & more', ok: false, detail: "got \u0000 and \ud800 <b>" },
  ],
  seed: 1,
  skipped: [{ id: "isolation.phone", title: "phones per merchant", skipped: "needs a second merchant's key" }],
  durationMs: 1234,
};

describe("report formats", () => {
  it.each([
    [report.checks[0]!, "ok   signing.correct  a correctly signed request -> accepted (200)"],
    [report.checks[1]!, 'FAIL body.x.001  a "quoted" <title> & more\n       got \u0000 and \ud800 <b>'],
    [report.skipped[0]!, "skip isolation.phone  phones per merchant\n       needs a second merchant's key"],
  ])("one line per check with its id and title, the detail below a failure or skip (%#)", (result, line) => {
    expect(formatCheckLine(result)).toBe(line);
  });

  it("the summary line counts checks, passes, failures and skips, with the run time", () => {
    expect(formatSummary(report)).toBe("2 checks: 1 passed, 1 failed, 1 skipped in 1.2 s");
  });

  it("--json writes { passed, failed, checks: [{ id, title, ok, detail }], skipped }", () => {
    expect(JSON.parse(toJson(report))).toEqual({
      passed: 1,
      failed: 1,
      checks: report.checks,
      skipped: report.skipped,
    });
  });

  it("JUnit XML: a test case per check, failures and skips marked, text escaped and control characters replaced", () => {
    const xml = toJUnitXml(report);
    expect(xml).toContain(
      '<testsuites name="webinar-conformance" tests="3" failures="1" errors="0" skipped="1" time="1.234">',
    );
    expect(xml).toContain(
      '<testcase classname="webinar-conformance.signing" name="signing.correct a correctly signed request -&gt; accepted (200)"/>',
    );
    expect(xml).toContain(
      '<testcase classname="webinar-conformance.body" name="body.x.001 a &quot;quoted&quot; &lt;title&gt; &amp; more">\n      <failure message="got \ufffd and \ufffd &lt;b&gt;"/>',
    );
    expect(xml).toContain('<skipped message="needs a second merchant\'s key"/>');
    expect(xml).not.toMatch(/[\u0000-\u0008]/);
  });
});
