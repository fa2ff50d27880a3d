/** How a command line's options are declared: what node:util parseArgs needs, plus the help text of each. */

/** An option as parseArgs wants it, plus its help. */
export interface OptionSpec {
  type: "string" | "boolean";
  multiple?: boolean;
  short?: string;
  /** Placeholder of the value in help, e.g. `<id>` or `URL`. */
  value?: string;
  help: string;
  /** The environment variable the option falls back to, shown in help as `[NAME]`. */
  env?: string;
}

/** The parsed values, by option name. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;
