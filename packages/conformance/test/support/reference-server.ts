/**
 * The reference server as operators run it (the `webinar-server` command of @org/webinar-server, as built), on the
 * embedded database or on a PostgreSQL database of its own, with two merchants, their keys and a webinar with watch
 * records made through its admin API (@org/webinar-test-support's conformance world).
 */
import { packageBin } from "@org/webinar-test-support/package-bin";
import { type ConformanceServer, startConformanceServer } from "@org/webinar-test-support/conformance-world";

export type ReferenceServer = ConformanceServer;

const SERVER_MAIN = packageBin(import.meta.url, "@org/webinar-server", "webinar-server");

/** Starts the built server on `database` and prepares the merchants, keys, webinar and watch data. */
export const startReferenceServer = (database: "pglite" | "postgres", options?: { ticketLifetimeSeconds?: number }) =>
  startConformanceServer([process.execPath, SERVER_MAIN], database, options);
