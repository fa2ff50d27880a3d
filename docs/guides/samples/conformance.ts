/**
 * A conformance run from a script, e.g. a CI step of your own server's repository: every check against the server
 * named in the environment, failures printed as they come, a JUnit report for the CI system, and the exit code.
 *
 * Run: WEBINAR_BASE_URL=http://127.0.0.1:8080 WEBINAR_API_KEY=wk_... WEBINAR_API_SECRET=... \
 *      WEBINAR_TICKET_CODE=wbn-... npx tsx conformance.ts
 */
import { writeFileSync } from "node:fs";
import { runConformance, toJUnitXml } from "@org/webinar-conformance";

const report = await runConformance({
  baseUrl: process.env.WEBINAR_BASE_URL!,
  apiKey: process.env.WEBINAR_API_KEY!,
  apiSecret: process.env.WEBINAR_API_SECRET!,
  ticketCode: process.env.WEBINAR_TICKET_CODE!,
  onCheck: (check) => {
    if ("ok" in check && !check.ok) console.error(`FAIL ${check.id}: ${check.title}\n     ${check.detail}`);
  },
});

writeFileSync("conformance-junit.xml", toJUnitXml(report));
console.log(`${report.passed} checks passed, ${report.failed} failed, ${report.skipped.length} skipped`);
process.exitCode = report.failed === 0 ? 0 : 1;
