/**
 * `webinar`, the command line of the client: argument parsing (node:util parseArgs), help, credentials from
 * flags, the environment or an `--env-file`, and turning failures into a message on stderr and an exit code:
 *
 * | exit | meaning |
 * |---|---|
 * | 0 | success |
 * | 1 | the API answered with an error (code, message, requestId and each detail are printed) |
 * | 2 | usage: unknown command or option, missing or invalid value, missing credentials |
 * | 3 | no valid answer: network failure, timeout, refused redirect, non-JSON answer |
 * | 4 | unexpected failure (a bug) |
 */
import { parseArgs } from "node:util";
import packageJson from "../../package.json" with { type: "json" };
import { createWebinarClient } from "../client";
import type { WebinarClient } from "../webinar-client";
import { WebinarApiError, WebinarConnectionError, WebinarResponseError, WebinarTimeoutError } from "../errors";
import type { RequestLogEntry } from "../request-log";
import {
  joinOptionValues,
  optionTable,
  parseCommandLine,
  parseConfig,
  UsageError,
  withEnvFile,
  type OptionSpec,
  type OptionValues,
} from "@org/webinar-internal/command-line";
import { COMMANDS, GLOBAL_OPTIONS, integer, type CommandSpec } from "./commands";
import { formatErrorDetails } from "./format";
import { write, type CliIo } from "./output";

export const EXIT = { ok: 0, apiError: 1, usage: 2, noValidAnswer: 3, unexpected: 4 } as const;

function commandHelp(command: CommandSpec): string {
  const notes = command.notes === undefined ? "" : `\n${command.notes}\n`;
  return `webinar ${command.name}: ${command.summary}\n\nUsage: ${command.usage}\n${notes}\nOptions:\n${optionTable(command.options)}\n\nGlobal options:\n${optionTable(GLOBAL_OPTIONS)}\n`;
}

function generalHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const commands = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join("\n");
  return `webinar ${packageJson.version}: the Webinar Open API from the command line

Usage: webinar <command> [options]

Commands:
${commands}

Credentials come from WEBINAR_BASE_URL, WEBINAR_API_KEY and WEBINAR_API_SECRET (from the environment or
a file named by --env-file), or from --base-url, --api-key and --api-secret. Every request is signed; the
secret is never sent.

Global options:
${optionTable(GLOBAL_OPTIONS)}

Exit codes: 0 success, 1 API error, 2 usage error, 3 no valid answer (network, timeout, non-JSON), 4 bug.
Run 'webinar <command> --help' for a command's options.
`;
}

/** Every option of every command, so a first pass can tell option values from command words. */
const ALL_OPTIONS: Record<string, OptionSpec> = Object.assign(
  {},
  GLOBAL_OPTIONS,
  ...COMMANDS.map((command) => command.options),
);

function selectCommand(argv: string[]): CommandSpec | undefined {
  const { tokens } = parseArgs({
    args: joinOptionValues(argv, ALL_OPTIONS),
    options: parseConfig(ALL_OPTIONS),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const words = tokens.filter((token) => token.kind === "positional").map((token) => token.value);
  // The most words first, so `viewers export` wins over `viewers`.
  const byLength = [...COMMANDS].sort((a, b) => b.name.split(" ").length - a.name.split(" ").length);
  return byLength.find((command) => command.name.split(" ").every((word, index) => words[index] === word));
}

function credentials(values: OptionValues, processEnv: CliIo["env"]) {
  const file = values["env-file"];
  const env = withEnvFile(typeof file === "string" ? file : undefined, processEnv);
  const pick = (flag: string, variable: string) => {
    const value = values[flag];
    return typeof value === "string" ? value : env[variable];
  };
  const found = {
    baseUrl: pick("base-url", "WEBINAR_BASE_URL"),
    apiKey: pick("api-key", "WEBINAR_API_KEY"),
    secret: pick("api-secret", "WEBINAR_API_SECRET"),
  };
  const missing = [
    found.baseUrl ? undefined : "--base-url or WEBINAR_BASE_URL",
    found.apiKey ? undefined : "--api-key or WEBINAR_API_KEY",
    found.secret ? undefined : "--api-secret or WEBINAR_API_SECRET",
  ].filter((item) => item !== undefined);
  if (missing.length > 0) throw new UsageError(`missing credentials: ${missing.join(", ")}`);
  return found as { baseUrl: string; apiKey: string; secret: string };
}

function logTo(io: CliIo) {
  return (entry: RequestLogEntry) => {
    const outcome =
      entry.error === undefined
        ? String(entry.status)
        : `${entry.status ?? "-"} ${entry.error.code ?? entry.error.name}`;
    const retry = entry.retryInMs === undefined ? "" : ` retry in ${entry.retryInMs} ms`;
    io.stderr.write(
      `webinar: POST ${entry.path} attempt ${entry.attempt}: ${outcome} in ${entry.durationMs.toFixed(0)} ms requestId ${entry.requestId ?? "-"}${retry}\n`,
    );
  };
}

function clientFactory(values: OptionValues, io: CliIo): () => WebinarClient {
  let client: WebinarClient | undefined;
  return () => {
    if (client !== undefined) return client;
    const timeoutMs = integer(values, "timeout-ms", false);
    try {
      client = createWebinarClient({
        ...credentials(values, io.env),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(values.verbose === true ? { logger: logTo(io) } : {}),
      });
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError((error as Error).message);
    }
    return client;
  };
}

async function report(error: unknown, io: CliIo, json: boolean, command: CommandSpec | undefined): Promise<number> {
  const say = (text: string, detail: Record<string, unknown>) =>
    write(io.stderr, json ? `${JSON.stringify({ error: detail })}\n` : `webinar: ${text}\n`);
  if (error instanceof UsageError) {
    await write(
      io.stderr,
      `webinar: ${error.message}\nRun 'webinar ${command === undefined ? "" : `${command.name} `}--help' for usage.\n`,
    );
    return EXIT.usage;
  }
  if (error instanceof WebinarApiError) {
    const { status, code, message, requestId, details } = error;
    // Each detail on a line of its own: which field was refused and why, so the call can be fixed at once.
    const detailLines = formatErrorDetails(details)
      .map((line) => `\n  ${line}`)
      .join("");
    await say(`${code}: ${message} (HTTP ${status}, requestId ${requestId})${detailLines}`, {
      type: "api",
      status,
      code,
      message,
      requestId,
      ...(details === undefined ? {} : { details }),
    });
    return EXIT.apiError;
  }
  if (error instanceof WebinarResponseError) {
    const requestId = error.requestId === undefined ? "" : `, requestId ${error.requestId}`;
    await say(`invalid answer: ${error.message} (HTTP ${error.status}${requestId})`, {
      type: "response",
      status: error.status,
      message: error.message,
      requestId: error.requestId,
    });
    return EXIT.noValidAnswer;
  }
  if (error instanceof WebinarConnectionError || error instanceof WebinarTimeoutError) {
    await say(`${error.name}: ${error.message} (after ${error.attempts} attempt${error.attempts === 1 ? "" : "s"})`, {
      type: error instanceof WebinarTimeoutError ? "timeout" : "connection",
      message: error.message,
      attempts: error.attempts,
    });
    return EXIT.noValidAnswer;
  }
  await write(
    io.stderr,
    `webinar: unexpected failure, please report it: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT.unexpected;
}

/**
 * Runs one `webinar` invocation and returns its exit code.
 *
 * @example
 * const io = { stdout: process.stdout, stderr: process.stderr, env: process.env };
 * process.exitCode = await main(process.argv.slice(2), io);
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    await write(argv.length === 0 ? io.stderr : io.stdout, generalHelp());
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  if (argv[0] === "--version") {
    await write(io.stdout, `${packageJson.version}\n`);
    return EXIT.ok;
  }
  let command: CommandSpec | undefined;
  let json = argv.includes("--json");
  try {
    command = selectCommand(argv);
    if (command === undefined)
      throw new UsageError(
        `unknown command: ${
          argv
            .filter((arg) => !arg.startsWith("-"))
            .slice(0, 2)
            .join(" ") || argv.join(" ")
        }`,
      );
    const parsed = parseCommandLine(argv, { ...GLOBAL_OPTIONS, ...command.options }, { allowPositionals: true });
    if (parsed.positionals.join(" ") !== command.name)
      throw new UsageError(
        `unexpected argument: ${parsed.positionals.slice(command.name.split(" ").length).join(" ")}`,
      );
    json = parsed.values.json === true;
    if (parsed.values.help === true) {
      await write(io.stdout, commandHelp(command));
      return EXIT.ok;
    }
    await command.run({ values: parsed.values, client: clientFactory(parsed.values, io), io, json });
    return EXIT.ok;
  } catch (error) {
    return report(error, io, json, command);
  }
}
