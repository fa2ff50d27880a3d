/**
 * The reference server for the release tests, started from a server package's bin (installed from a registry or
 * a tarball) by the launcher every package's tests share (@org/webinar-test-support), and a merchant with an API
 * key and a published webinar made through its admin API.
 */
import { mkdirSync } from "node:fs";
import { type AdminMerchant, createAdminMerchant } from "@org/webinar-test-support/admin-client";
import { type ServerProcess, startServerProcess } from "@org/webinar-test-support/server-process";
import { cleanEnv } from "./processes.ts";

export type ReferenceServer = ServerProcess & AdminMerchant;

export async function startReferenceServer(options: {
  /** The command that starts the server, e.g. `[nodeBin, ".../node_modules/.bin/webinar-server"]`. */
  command: string[];
  cwd: string;
  /** A folder, or `memory:` for a database that lives as long as the process. */
  dataDir: string;
  env?: Record<string, string>;
}): Promise<ReferenceServer> {
  if (options.dataDir !== "memory:") mkdirSync(options.dataDir, { recursive: true });
  const server = await startServerProcess({
    command: options.command,
    cwd: options.cwd,
    env: { HOST: "127.0.0.1", WEBINAR_DATA_DIR: options.dataDir, WEBINAR_LOG_LEVEL: "warn", ...options.env },
  });
  try {
    return Object.assign(server, await createAdminMerchant(server.admin, { name: "Release test merchant" }));
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The consumer script of both release tests: a signed `upsertViewer` through openapi-fetch + the middleware. */
export const signedCallScript = (format: "esm" | "cjs") =>
  [
    format === "esm"
      ? 'import createClient from "openapi-fetch";\nimport { createSigningMiddleware } from "@org/webinar-client";'
      : 'const createClient = require("openapi-fetch").default;\nconst { createSigningMiddleware } = require("@org/webinar-client");',
    "const api = createClient({ baseUrl: process.env.WEBINAR_BASE_URL });",
    "api.use(createSigningMiddleware({ apiKey: process.env.WEBINAR_API_KEY, secret: process.env.WEBINAR_API_SECRET }));",
    `const run = async () => {`,
    `  const { data, error, response } = await api.POST("/api/v1/open/viewers/upsert", { body: { externalUserId: "release-${format}" } });`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal of the generated consumer file
    "  if (error) throw new Error(`${response.status} ${JSON.stringify(error)}`);",
    "  console.log(JSON.stringify({ status: response.status, uid: data.data.viewer.uid, created: data.data.created }));",
    "};",
    "run().catch((error) => { console.error(error); process.exit(1); });",
    "",
  ].join("\n");

/** Environment that hands a consumer script the server and its credentials. */
export const serverEnv = (server: ReferenceServer): NodeJS.ProcessEnv =>
  cleanEnv({ WEBINAR_BASE_URL: server.url, WEBINAR_API_KEY: server.apiKey, WEBINAR_API_SECRET: server.secret });
