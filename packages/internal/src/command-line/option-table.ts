/** The options part of a help text: one aligned row per option, its flag, value placeholder, help and variable. */
import type { OptionSpec } from "./option-spec";

/** `  -h, --help        show help` rows, the help column aligned. */
export function optionTable(options: Readonly<Record<string, OptionSpec>>): string {
  const rows = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short === undefined ? "" : `-${spec.short}, `}--${name}${spec.value === undefined ? "" : ` ${spec.value}`}`;
    return [flag, `${spec.help}${spec.env === undefined ? "" : ` [${spec.env}]`}`] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`).join("\n");
}
