/**
 * Where the key of the secret box comes from: WEBINAR_SECRET_KEY when set; otherwise, for the embedded database
 * in a directory, a key file `secret.key` created there with mode 0600 on first start; for `memory:` a random
 * key of this process (the data dies with the process anyway). With DATABASE_URL the variable is required
 * (checked in config.ts), because every process sharing the database must share the key.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError, parseSecretKey, type StorageConfig } from "../config";
import type { Runtime } from "../runtime";

/** The key file's name inside the data directory. */
export const SECRET_KEY_FILE = "secret.key";

/** Resolves the 32-byte key; creates the key file when needed. */
export async function resolveSecretKey(
  configured: Buffer | undefined,
  storage: StorageConfig,
  runtime: Pick<Runtime, "randomBytes">,
): Promise<Buffer> {
  if (configured !== undefined) return configured;
  if (storage.kind === "postgres") throw new ConfigError("WEBINAR_SECRET_KEY is required with DATABASE_URL");
  if (storage.dataDir === "memory:") return runtime.randomBytes(32);
  await mkdir(storage.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(storage.dataDir, SECRET_KEY_FILE);
  try {
    // "wx": never overwrite a key another process just wrote; mode 0600: readable by the owner only.
    await writeFile(file, `${runtime.randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return parseSecretKey((await readFile(file, "utf8")).trim(), file);
}
