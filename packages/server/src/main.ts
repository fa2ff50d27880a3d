#!/usr/bin/env node
/**
 * `node dist/main.js` (the root `pnpm start`): reads the environment, starts the server in the foreground and
 * shuts down gracefully on SIGTERM or SIGINT (stop accepting, finish requests in flight, close the database).
 */
import { ConfigError, loadConfig } from "./config";
import { startServer } from "./server";

const USAGE = `Usage: webinar-server [--help]

Runs the Webinar Open API reference server in the foreground, configured by the environment:
  PORT (8080), HOST (127.0.0.1)           where to listen
  WEBINAR_DATA_DIR (./.data | memory:)    embedded database (PGlite) directory
  DATABASE_URL                            PostgreSQL instead of the embedded database (needs WEBINAR_SECRET_KEY)
  WEBINAR_SECRET_KEY                      key that encrypts API-key secrets at rest (hex, 32 bytes)
  WEBINAR_ADMIN_TOKEN                     bearer token of the admin API (disabled when unset)
  WEBINAR_TICKET_TTL_SECONDS (60)         login ticket validity
  WEBINAR_CLOCK_SKEW_SECONDS, WEBINAR_MAX_BODY_BYTES, WEBINAR_PUBLIC_WATCH_ORIGIN, WEBINAR_ALLOWED_ORIGINS,
  REDIS_URL, WEBINAR_MODERATION_URL       see the package README for these and the rest
On a first start with an empty database it creates a demo merchant and prints its credentials once.
`;

async function main(): Promise<void> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  const config = loadConfig(process.env);
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.services.logger.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.services.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`webinar-server: configuration error: ${error.message}\n`);
  } else {
    process.stderr.write(`webinar-server: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
