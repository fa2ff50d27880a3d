/**
 * `@org/webinar-internal/command-line`: the parts of a command line tool the `webinar` CLI and the
 * `webinar-conformance` CLI share: strict parsing with node:util parseArgs that accepts option values starting
 * with `-`, `--env-file`, whole-number options, the help table and the usage error.
 *
 * @example
 * ```ts
 * import { parseCommandLine, UsageError } from "@org/webinar-internal/command-line";
 *
 * const { values } = parseCommandLine(process.argv.slice(2), { "api-secret": { type: "string", help: "the secret" } });
 * ```
 */
export { withEnvFile } from "./env-file";
export type { Environment } from "./env-file";
export { integerOption } from "./integer-option";
export type { OptionSpec, OptionValues } from "./option-spec";
export { optionTable } from "./option-table";
export { joinOptionValues, parseCommandLine, parseConfig } from "./parse-command-line";
export { UsageError } from "./usage-error";
