/**
 * PostgreSQL's notifications, heard on one dedicated connection per process. The connection is pinged every
 * PING_INTERVAL_MS: a ping answered means every notification committed before it has arrived (PostgreSQL sends
 * them on the connection ahead of the ping's answer), and a ping not answered within PING_TIMEOUT_MS, an error or
 * a closed connection means notifications may be missed. Then caches are cleared and bypassed until the
 * connection is back and listening, which is retried with a growing delay.
 */
import pg from "pg";
import type { Logger } from "../logging/log";
import { CHANGE_CHANNEL, isChangeTopic, type ChangeSignal, type ChangeSource } from "./change-feed";

export const PING_INTERVAL_MS = 250;
export const PING_TIMEOUT_MS = 500;
const RETRY_FIRST_MS = 250;
const RETRY_LONGEST_MS = 5000;

export async function listenOnPostgres(
  databaseUrl: string,
  signal: (signal: ChangeSignal) => void,
  logger: Logger,
): Promise<ChangeSource> {
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let ping: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryDelay = RETRY_FIRST_MS;

  /** The connection `lostClient` went away: caches go, and a new connection is tried later. */
  const lose = (lostClient: pg.Client, error?: unknown) => {
    if (client !== lostClient) return;
    client = undefined;
    clearInterval(ping);
    if (listening) logger.warn({ err: error }, "change notifications lost: caches are bypassed until they are back");
    listening = false;
    signal("all");
    lostClient.end().catch(() => undefined);
    if (closed) return;
    retry = setTimeout(() => void connect(), retryDelay);
    retry.unref();
    retryDelay = Math.min(retryDelay * 2, RETRY_LONGEST_MS);
  };

  const connect = async () => {
    const next = new pg.Client({
      connectionString: databaseUrl,
      application_name: "webinar-server-changes",
      keepAlive: true,
      connectionTimeoutMillis: 2000,
      query_timeout: PING_TIMEOUT_MS,
    });
    client = next;
    next.on("error", (error) => lose(next, error));
    next.on("end", () => lose(next));
    next.on("notification", ({ payload }) => {
      if (isChangeTopic(payload)) signal(payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      lose(next, error);
      return;
    }
    // Whatever was cached before may have missed a change: start afresh.
    signal("all");
    listening = true;
    retryDelay = RETRY_FIRST_MS;
    let pinging = false;
    ping = setInterval(() => {
      if (pinging) return;
      pinging = true;
      next.query("select 1").then(
        () => {
          pinging = false;
        },
        (error: unknown) => lose(next, error),
      );
    }, PING_INTERVAL_MS);
    ping.unref();
  };

  await connect();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(ping);
      listening = false;
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}
