/** `--env-file`: variables from a dotenv file, under those of the environment (as with `node --env-file`). */
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { UsageError } from "./usage-error";

export type Environment = Record<string, string | undefined>;

/** `env` over the variables of `file`; `env` itself when no file is named. A file that cannot be read is a usage error. */
export function withEnvFile(file: string | undefined, env: Environment): Environment {
  if (file === undefined) return env;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--env-file ${file}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  return { ...parseEnv(text), ...env };
}
