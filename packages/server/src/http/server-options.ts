/**
 * The HTTP server's limits, from the configuration: how long a client may take to send its headers and its whole
 * request, how long an idle keep-alive connection stays open, the largest header block, and how many connections
 * may be open at once. A slow or greedy client costs a bounded amount of time and memory, never an unbounded one.
 */
import type { Server, ServerOptions } from "node:http";
import type { ServerConfig } from "../config";

type ConnectionLimits = Pick<
  ServerConfig,
  "headersTimeoutMs" | "requestTimeoutMs" | "keepAliveTimeoutMs" | "maxHeaderBytes" | "maxConnections"
>;

/**
 * Node checks the headers and request time limits of open connections on this interval (30 s by default), so a
 * limit fires at most this late.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** Options for `http.createServer`. */
export function httpServerOptions(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
  };
}

/** The limits that are properties of the created server rather than constructor options. */
export function applyConnectionLimits(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
}
