/**
 * The demo's credentials file, `demo-credentials.env` in the data directory, readable by its owner only (mode
 * 0600). The first start that creates the demo merchant writes it: the base URL, the API key and secret, the demo
 * webinar, the demo console user's email and invite link, and, when the server was started without WEBINAR_ADMIN_TOKEN, an admin token made for the demo, which
 * later starts on the same data directory keep using. It is in dotenv form, so `webinar --env-file <file>` (the
 * CLI) and `node --env-file` read it as it is. Only the embedded database on disk has one: `memory:` and
 * PostgreSQL keep nothing on this machine's disk, and their start prints the secret once instead.
 */
import { chmod, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseEnv } from "node:util";
import type { ServerConfig } from "../config";
import { readTextIfExists } from "../read-if-exists";
import { randomBase62, type Runtime } from "../runtime";
import { inviteUrl } from "../people/invites";
import type { DemoSeed } from "./demo";

export const DEMO_CREDENTIALS_FILE = "demo-credentials.env";

/** Where the demo's credentials live, or undefined when the storage has no data directory on disk. */
export function demoCredentialsPath(storage: ServerConfig["storage"]): string | undefined {
  return storage.kind === "pglite" && storage.dataDir !== "memory:"
    ? path.join(storage.dataDir, DEMO_CREDENTIALS_FILE)
    : undefined;
}

async function readEntries(file: string): Promise<Record<string, string> | undefined> {
  const text = await readTextIfExists(file);
  if (text === undefined) return undefined;
  const entries: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseEnv(text))) if (value !== undefined) entries[name] = value;
  return entries;
}

/**
 * The admin token the server uses: WEBINAR_ADMIN_TOKEN when set; otherwise, on a data directory with the demo,
 * a new random token on the start that creates the demo, and the stored one on later starts; else none (the admin
 * API stays disabled).
 */
export async function resolveAdminToken(
  config: ServerConfig,
  demo: DemoSeed,
  runtime: Runtime,
): Promise<string | undefined> {
  if (config.adminToken !== undefined) return config.adminToken;
  const file = demoCredentialsPath(config.storage);
  if (file === undefined || demo.kind === "none") return undefined;
  if (demo.kind === "created") return `adm_${randomBase62(runtime, 32)}`;
  return (await readEntries(file))?.WEBINAR_ADMIN_TOKEN;
}

/** A value as dotenv reads it back: quoted when it holds `#` (else read as a comment) or white space. */
function dotenvValue(value: string): string {
  return /[#\s"']/.test(value) ? `"${value}"` : value;
}

function serialize(entries: Record<string, string>): string {
  const lines = Object.entries(entries).map(([name, value]) => `${name}=${dotenvValue(value)}`);
  return `# Demo credentials of the Webinar reference server. Keep this file private.\n${lines.join("\n")}\n`;
}

/** Replaces the file in one step (write a sibling, then rename), owner-only from its first byte. */
async function writeEntries(file: string, entries: Record<string, string>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, serialize(entries), { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/**
 * Writes the file on the start that created the demo; on later starts, brings its base URL up to date (the
 * port may have changed) and leaves the rest. Returns the file's path when it holds the demo's credentials.
 */
export async function saveDemoCredentials(
  config: ServerConfig,
  demo: DemoSeed,
  baseUrl: string,
  adminToken: string | undefined,
  consoleOrigin: string = baseUrl,
): Promise<string | undefined> {
  const file = demoCredentialsPath(config.storage);
  if (file === undefined || demo.kind === "none") return undefined;
  if (demo.kind === "created") {
    await writeEntries(file, {
      WEBINAR_BASE_URL: baseUrl,
      WEBINAR_API_KEY: demo.apiKey,
      WEBINAR_API_SECRET: demo.secret,
      WEBINAR_DEMO_MERCHANT_ID: demo.merchantId,
      WEBINAR_DEMO_TICKET_CODE: demo.ticketCode,
      WEBINAR_CONSOLE_EMAIL: demo.consoleEmail,
      WEBINAR_CONSOLE_INVITE_URL: inviteUrl(consoleOrigin, demo.consoleInviteToken),
      // Only a token made for the demo; one given by the operator stays where the operator keeps it.
      ...(adminToken !== undefined && adminToken !== config.adminToken ? { WEBINAR_ADMIN_TOKEN: adminToken } : {}),
    });
    return file;
  }
  const entries = await readEntries(file);
  if (entries === undefined) return undefined;
  if (entries.WEBINAR_BASE_URL !== baseUrl) await writeEntries(file, { ...entries, WEBINAR_BASE_URL: baseUrl });
  return file;
}
