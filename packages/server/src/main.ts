#!/usr/bin/env node
/**
 * `node dist/main.js` (the root `pnpm start`): reads the environment, starts the server in the foreground and
 * shuts down gracefully on SIGTERM or SIGINT (stop accepting, finish requests in flight, close the database).
 */
import { ConfigError, loadConfig } from "./config";
import { startServer } from "./server";

async function main(): Promise<void> {
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
