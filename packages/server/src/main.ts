#!/usr/bin/env node
/**
 * `node dist/main.js` (the root `pnpm start`): reads the environment, starts the server in the foreground and
 * shuts down gracefully on SIGTERM or SIGINT (stop accepting, finish requests in flight, commit the pending batched
 * writes, close the database, export the last spans).
 */
import { loadConfig, type ServerConfig } from "./config";
import { startServer } from "./server";
import { describeStartError } from "./start-error";
import { startTracing } from "./tracing/start-tracing";

const USAGE = `Usage: webinar-server [--help]

Runs the Webinar Open API reference server in the foreground, configured by the environment:
  PORT (8080), HOST (127.0.0.1)           where to listen
  WEBINAR_DATA_DIR (./.data | memory:)    embedded database (PGlite) directory, locked for one server
  DATABASE_URL                            PostgreSQL instead of the embedded database (needs WEBINAR_SECRET_KEY)
  WEBINAR_SECRET_KEY                      key that encrypts API-key secrets at rest (hex, 32 bytes)
  WEBINAR_ADMIN_TOKEN                     bearer token of the admin API, 8 characters or more (unset: the
                                          demo's token of the data directory, or the admin API is disabled)
  WEBINAR_LOG_FORMAT (auto)               pretty | json | auto (readable on a terminal, JSON otherwise)
  WEBINAR_TICKET_TTL_SECONDS (60)         login ticket validity
  WEBINAR_HEADERS_TIMEOUT_MS (10000)      time limit for a client to send the request headers
  WEBINAR_REQUEST_TIMEOUT_MS (30000)      time limit for a client to send a whole request
  WEBINAR_KEEP_ALIVE_TIMEOUT_MS (5000)    how long an idle keep-alive connection stays open
  WEBINAR_MAX_HEADER_BYTES (16384)        largest request header block (larger: 431)
  WEBINAR_MAX_CONNECTIONS (1000)          most connections open at once
  WEBINAR_DB_CONNECT_TIMEOUT_MS (2000)    time limit to connect to PostgreSQL or wait for a pooled connection
  WEBINAR_DB_STATEMENT_TIMEOUT_MS (1500)  time limit of one statement (the client gives up 500 ms later)
  WEBINAR_SHUTDOWN_GRACE_MS (10000)       how long SIGTERM waits for requests in flight
  WEBINAR_METRICS_PORT, WEBINAR_METRICS_HOST (127.0.0.1)   Prometheus metrics at GET /metrics on a listener of
                                          its own (off while the port is unset)
  OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_EXPORTER, ...   OpenTelemetry traces (off unless they set an exporter)
  WEBINAR_CLOCK_SKEW_SECONDS, WEBINAR_MAX_BODY_BYTES, WEBINAR_PUBLIC_WATCH_ORIGIN, WEBINAR_ALLOWED_ORIGINS,
  REDIS_URL, WEBINAR_MODERATION_URL       see the package README for these and the rest
On a first start with an empty database it creates a demo merchant, prints its credentials once and, on a
data directory, saves them in <data dir>/demo-credentials.env (mode 0600).
A start that fails prints one line saying what failed and which setting to change, and exits with code 1.
`;

async function main(): Promise<void> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  let config: ServerConfig | undefined;
  try {
    config = loadConfig(process.env);
    const tracing = await startTracing(process.env);
    const server = await startServer(config, { tracer: tracing?.tracer });
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      server.services.logger.info({ signal }, "shutting down");
      server
        .close()
        // The last spans are exported before the process exits.
        .then(() => tracing?.shutdown())
        .then(
          () => process.exit(0),
          (error: unknown) => {
            server.services.logger.error({ err: error }, "shutdown failed");
            process.exit(1);
          },
        );
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  } catch (error) {
    process.stderr.write(`webinar-server: ${describeStartError(error, config)}\n`);
    process.exit(1);
  }
}

void main();
