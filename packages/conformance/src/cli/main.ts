/**
 * `webinar-conformance`: runs the checks against a server and prints a line per check and a summary; `--json` and
 * `--junit` write the report to files. Options come from flags, the environment, or a dotenv file named by
 * `--env-file` (flags win over the environment, the environment over the file, as with the `webinar` CLI).
 *
 * | exit | meaning |
 * |---|---|
 * | 0 | every check that ran passed |
 * | 1 | at least one check failed |
 * | 2 | usage: unknown option, missing or invalid value |
 */
import { writeFileSync } from "node:fs";
import {
  integerOption,
  optionTable,
  parseCommandLine,
  UsageError,
  withEnvFile,
  type OptionSpec,
} from "@org/webinar-internal/command-line";
import packageJson from "../../package.json" with { type: "json" };
import { DEFAULT_MODEL_RUNS, type ConformanceOptions } from "../options";
import { loadSetup } from "./load-setup";
import { formatCheckLine, formatSummary, toJson, toJUnitXml } from "../report-formats";
import { listChecks, runConformance } from "../run-conformance";

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
}

const OPTIONS = {
  "base-url": { type: "string", env: "WEBINAR_BASE_URL", value: "URL", help: "the API's base URL" },
  "api-key": { type: "string", env: "WEBINAR_API_KEY", value: "KEY", help: "an API key of an active merchant" },
  "api-secret": { type: "string", env: "WEBINAR_API_SECRET", value: "SECRET", help: "its secret (signs, never sent)" },
  "ticket-code": {
    type: "string",
    env: "WEBINAR_TICKET_CODE",
    value: "CODE",
    help: "ticketCode of a published webinar of that merchant (also WEBINAR_DEMO_TICKET_CODE)",
  },
  "second-api-key": {
    type: "string",
    env: "WEBINAR_SECOND_API_KEY",
    value: "KEY",
    help: "a second merchant's key (isolation checks)",
  },
  "second-api-secret": { type: "string", env: "WEBINAR_SECOND_API_SECRET", value: "SECRET", help: "its secret" },
  "session-url": {
    type: "string",
    env: "WEBINAR_SESSION_URL",
    value: "URL",
    help: "the watch page's ticket exchange, POST {ticketCode, loginTicket} (one-time use checks)",
  },
  "clock-skew-seconds": {
    type: "string",
    value: "N",
    help: "the server's accepted clock skew (default 300, the spec's)",
  },
  "max-body-bytes": { type: "string", value: "N", help: "the server's body limit (default 1048576, the spec's)" },
  setup: {
    type: "string",
    env: "WEBINAR_CONFORMANCE_SETUP",
    value: "MODULE",
    help: "a JavaScript module exporting the setup hooks (state, live and watch-data checks)",
  },
  "admin-url": {
    type: "string",
    env: "WEBINAR_ADMIN_URL",
    value: "URL",
    help: "the reference server's base URL: its admin API as the setup hooks",
  },
  "admin-token": {
    type: "string",
    env: "WEBINAR_ADMIN_TOKEN",
    value: "TOKEN",
    help: "the reference server's admin token",
  },
  "ticket-lifetime-seconds": {
    type: "string",
    value: "N",
    help: "the server's login ticket lifetime, for the expiry check (waits it out; at most 120)",
  },
  seed: {
    type: "string",
    value: "N",
    help: "the seed of the fuzz and model checks, to replay a run (default fixed, printed)",
  },
  "fuzz-runs": {
    type: "string",
    value: "N",
    help: "bodies the fuzz checks send per operation and kind (default 100; twice that for names)",
  },
  "model-runs": {
    type: "string",
    value: "N",
    help: `command sequences the model-based checks run (default ${DEFAULT_MODEL_RUNS}; 0 skips them)`,
  },
  "model-seconds": {
    type: "string",
    value: "N",
    help: "time limit of the model-based checks, in seconds (default 40)",
  },
  "model-path": {
    type: "string",
    value: "PATH",
    help: "replay the failing sequence a model-based check printed (its path, with its --seed)",
  },
  "timeout-ms": { type: "string", value: "N", help: "time allowed for one answer (default 15000)" },
  only: {
    type: "string",
    multiple: true,
    value: "PREFIX",
    help: "run only checks whose id starts with PREFIX (repeatable)",
  },
  json: { type: "string", value: "FILE", help: "write { passed, failed, checks, skipped } to FILE" },
  junit: { type: "string", value: "FILE", help: "write JUnit XML to FILE" },
  "env-file": { type: "string", value: "FILE", help: "read the WEBINAR_* variables from a dotenv file" },
  list: { type: "boolean", help: "list every check's id and title, run nothing" },
  help: { type: "boolean", short: "h", help: "show this help" },
  version: { type: "boolean", help: "show the version" },
} as const satisfies Record<string, OptionSpec>;

type Name = keyof typeof OPTIONS;
type Values = Partial<Record<Name, string | boolean | string[]>>;

function help(): string {
  return `webinar-conformance ${packageJson.version}: does a server implement the Webinar Open API?

Usage: webinar-conformance --base-url URL --api-key KEY --api-secret SECRET --ticket-code CODE
                           [--json FILE] [--junit FILE] [--only PREFIX] [--env-file FILE]

Black-box checks of every rule a client can observe, against any server at any address: signing, body
rules, upsertViewer, login tickets, watch data, and every answer against the spec's response schema. It
creates viewers with external ids starting "wc-" (new ones on every run) and issues tickets to them.

Options:
${optionTable(OPTIONS)}

Exit codes: 0 every check passed, 1 a check failed, 2 usage error.
`;
}

function integerFlag(values: Values, name: Name, least: 0 | 1 = 1): number | undefined {
  const raw = values[name];
  return typeof raw === "string" ? integerOption(name, raw, least) : undefined;
}

/** The run's options from flags, then the environment (including `--env-file`). */
async function optionsFrom(values: Values, processEnv: CliIo["env"]): Promise<ConformanceOptions> {
  const env = withEnvFile(values["env-file"] as string | undefined, processEnv);
  const pick = (name: Name): string | undefined => {
    const flag = values[name];
    if (typeof flag === "string") return flag;
    const spec = OPTIONS[name];
    return "env" in spec ? env[spec.env] || undefined : undefined;
  };
  const ticketCode = pick("ticket-code") ?? (env["WEBINAR_DEMO_TICKET_CODE"] || undefined);
  const required = {
    "base-url": pick("base-url"),
    "api-key": pick("api-key"),
    "api-secret": pick("api-secret"),
    "ticket-code": ticketCode,
  };
  const missing = Object.entries(required).filter(([, value]) => value === undefined);
  if (missing.length > 0)
    throw new UsageError(
      `missing ${missing.map(([name]) => `--${name} (${(OPTIONS[name as Name] as { env: string }).env})`).join(", ")}`,
    );
  const secondKey = pick("second-api-key");
  const secondSecret = pick("second-api-secret");
  if ((secondKey === undefined) !== (secondSecret === undefined))
    throw new UsageError("--second-api-key and --second-api-secret go together");
  const sessionUrl = pick("session-url");
  const modelPath = pick("model-path");
  const setup = await loadSetup(
    {
      setupModule: pick("setup"),
      adminUrl: pick("admin-url"),
      adminToken: pick("admin-token"),
      ticketLifetimeSeconds: integerFlag(values, "ticket-lifetime-seconds"),
    },
    env,
  );
  const numbers = {
    clockSkewSeconds: integerFlag(values, "clock-skew-seconds"),
    maxBodyBytes: integerFlag(values, "max-body-bytes"),
    timeoutMs: integerFlag(values, "timeout-ms"),
    seed: integerFlag(values, "seed", 0),
    fuzzRuns: integerFlag(values, "fuzz-runs", 0),
    modelRuns: integerFlag(values, "model-runs", 0),
    modelSeconds: integerFlag(values, "model-seconds"),
  };
  return {
    baseUrl: required["base-url"]!,
    apiKey: required["api-key"]!,
    apiSecret: required["api-secret"]!,
    ticketCode: required["ticket-code"]!,
    ...(secondKey === undefined ? {} : { secondMerchant: { apiKey: secondKey, secret: secondSecret! } }),
    ...(sessionUrl === undefined ? {} : { sessionUrl }),
    ...(modelPath === undefined ? {} : { modelPath }),
    ...(setup === undefined ? {} : { setup }),
    ...Object.fromEntries(Object.entries(numbers).filter(([, value]) => value !== undefined)),
    ...(values.only === undefined ? {} : { only: values.only as string[] }),
  };
}

/**
 * Runs one `webinar-conformance` invocation and returns its exit code.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  try {
    const { values } = parseCommandLine(argv, OPTIONS) as { values: Values };
    if (values.help === true || values.version === true || values.list === true) {
      if (values.help === true) io.stdout.write(help());
      else if (values.version === true) io.stdout.write(`${packageJson.version}\n`);
      else for (const { id, title } of listChecks()) io.stdout.write(`${id}  ${title}\n`);
      return EXIT.ok;
    }
    const options = await optionsFrom(values, io.env);
    let report: Awaited<ReturnType<typeof runConformance>>;
    try {
      report = await runConformance({
        ...options,
        onCheck: (result) => io.stdout.write(`${formatCheckLine(result)}\n`),
      });
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    }
    // The summary stays the last line; the seed just before it replays the fuzz and model checks.
    io.stdout.write(
      `\nfuzz seed ${report.seed}: --seed ${report.seed} sends the same bodies and command sequences again\n`,
    );
    io.stdout.write(`${formatSummary(report)}\n`);
    if (typeof values.json === "string") writeFileSync(values.json, toJson(report));
    if (typeof values.junit === "string") writeFileSync(values.junit, toJUnitXml(report));
    return report.failed === 0 ? EXIT.ok : EXIT.failed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`webinar-conformance: ${error.message}\nRun 'webinar-conformance --help' for usage.\n`);
    return EXIT.usage;
  }
}
