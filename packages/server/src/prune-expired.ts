/** Every minute: expired nonces, watch sessions, and tickets a day after their expiry (kept for support questions). */
import type { ServerNonceStore } from "./keys/nonce-stores";
import type { AppServices } from "./services";

const PRUNE_INTERVAL_MS = 60_000;

/** Starts the pruning timer (it does not keep the process alive); returns its stop. */
export function startPruning(services: AppServices, nonces: ServerNonceStore): () => void {
  const { db, runtime, logger } = services;
  const timer = setInterval(() => {
    const now = new Date(runtime.now());
    void Promise.all([
      nonces.prune(),
      db.deleteFrom("watch_sessions").where("expires_at", "<", now).execute(),
      db
        .deleteFrom("login_tickets")
        .where("expires_at", "<", new Date(now.getTime() - 86_400_000))
        .execute(),
    ]).catch((error: unknown) => logger.warn({ err: error }, "pruning expired rows failed"));
  }, PRUNE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
