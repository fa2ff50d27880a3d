/**
 * The reference server for the release tests, started from a server package's bin (installed from a registry or
 * a tarball) on the embedded database, and a merchant with an API key and a published webinar made through its
 * admin API.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { cleanEnv, freePort, startService, waitForHttp, type Service } from "./processes.ts";

export interface ReferenceServer {
  baseUrl: string;
  apiKey: string;
  secret: string;
  /** The merchant's published webinar. */
  ticketCode: string;
  service: Service;
  stop: () => Promise<void>;
}

export async function startReferenceServer(options: {
  /** The command that starts the server, e.g. `[nodeBin, ".../node_modules/.bin/webinar-server"]`. */
  command: string[];
  cwd: string;
  /** A folder, or `memory:` for a database that lives as long as the process. */
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}): Promise<ReferenceServer> {
  const port = await freePort();
  const adminToken = randomBytes(16).toString("hex");
  if (options.dataDir !== "memory:") mkdirSync(options.dataDir, { recursive: true });
  const [command, ...args] = options.command;
  const service = startService(command!, args, {
    cwd: options.cwd,
    env: cleanEnv({
      PORT: String(port),
      HOST: "127.0.0.1",
      WEBINAR_DATA_DIR: options.dataDir,
      WEBINAR_ADMIN_TOKEN: adminToken,
      ...options.env,
    }),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${baseUrl}/healthz`, service, 90_000);
    const admin = async (path: string, body: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as Record<string, string>;
      if (response.status !== 201)
        throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
      return answer;
    };
    const { merchantId } = await admin("/admin/v1/merchants", { name: "Release test merchant" });
    const { apiKey, secret } = await admin(`/admin/v1/merchants/${merchantId}/api-keys`, {});
    const { ticketCode } = await admin(`/admin/v1/merchants/${merchantId}/webinars`, {});
    return { baseUrl, apiKey: apiKey!, secret: secret!, ticketCode: ticketCode!, service, stop: service.stop };
  } catch (error) {
    await service.stop();
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
  cleanEnv({ WEBINAR_BASE_URL: server.baseUrl, WEBINAR_API_KEY: server.apiKey, WEBINAR_API_SECRET: server.secret });
