import path from "node:path";
import { describe, expect, it } from "vitest";
import { limits } from "@org/webinar-types";
import { loadConfig } from "./config";

describe("loadConfig (README: Environment)", () => {
  it("defaults: port 8080 on 127.0.0.1, TTL 60, skew and body limit from the spec's x-limits, ./.data, no origins", () => {
    const config = loadConfig({}, "/srv/app");
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      ticketTtlSeconds: 60,
      clockSkewSeconds: limits.clockSkewSeconds,
      maxBodyBytes: limits.maxBodyBytes,
      storage: { kind: "pglite", dataDir: path.resolve("/srv/app", ".data") },
      allowedOrigins: [],
      publicWatchOrigin: undefined,
      adminToken: undefined,
      uidMin: limits.uidMin,
      uidMax: limits.uidMax,
    });
  });

  it("reads every contract variable", () => {
    const config = loadConfig({
      PORT: "9000",
      HOST: "0.0.0.0",
      WEBINAR_DATA_DIR: "memory:",
      WEBINAR_ADMIN_TOKEN: "a-long-token",
      WEBINAR_TICKET_TTL_SECONDS: "30",
      WEBINAR_CLOCK_SKEW_SECONDS: "120",
      WEBINAR_MAX_BODY_BYTES: "4096",
      WEBINAR_PUBLIC_WATCH_ORIGIN: "https://watch.example.com/",
      WEBINAR_ALLOWED_ORIGINS: "https://docs.example.com, http://localhost:3000",
    });
    expect(config).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      storage: { kind: "pglite", dataDir: "memory:" },
      adminToken: "a-long-token",
      ticketTtlSeconds: 30,
      clockSkewSeconds: 120,
      maxBodyBytes: 4096,
      publicWatchOrigin: "https://watch.example.com",
      allowedOrigins: ["https://docs.example.com", "http://localhost:3000"],
    });
  });

  it.each([
    ["unset: metrics off", {}, { metricsPort: undefined, metricsHost: "127.0.0.1" }],
    ["a port: on 127.0.0.1", { WEBINAR_METRICS_PORT: "9464" }, { metricsPort: 9464, metricsHost: "127.0.0.1" }],
    ["0: any free port", { WEBINAR_METRICS_PORT: "0" }, { metricsPort: 0, metricsHost: "127.0.0.1" }],
    [
      "another host",
      { WEBINAR_METRICS_PORT: "9464", WEBINAR_METRICS_HOST: "0.0.0.0" },
      { metricsPort: 9464, metricsHost: "0.0.0.0" },
    ],
  ])("WEBINAR_METRICS_PORT / WEBINAR_METRICS_HOST, %s", (_name, env, expected) => {
    expect(loadConfig(env)).toMatchObject(expected);
  });

  it.each([
    ["unset: the watch page API's 15 seconds", {}, 15],
    ["a short interval for tests of the crediting", { WEBINAR_HEARTBEAT_INTERVAL_SECONDS: "2" }, 2],
  ])("WEBINAR_HEARTBEAT_INTERVAL_SECONDS, %s", (_name, env, seconds) => {
    expect(loadConfig(env).heartbeatIntervalSeconds).toBe(seconds);
  });

  it.each(["0", "301", "1.5"])("WEBINAR_HEARTBEAT_INTERVAL_SECONDS=%s is refused naming it", (value) => {
    expect(() => loadConfig({ WEBINAR_HEARTBEAT_INTERVAL_SECONDS: value })).toThrow(
      /WEBINAR_HEARTBEAT_INTERVAL_SECONDS/,
    );
  });

  it("WEBINAR_METRICS_PORT out of range is refused naming it", () => {
    expect(() => loadConfig({ WEBINAR_METRICS_PORT: "70000" })).toThrow(
      /WEBINAR_METRICS_PORT must be between 0 and 65535/,
    );
  });

  it("WEBINAR_TRUSTED_PROXIES: unset trusts no proxy; addresses and CIDR ranges are read; another entry fails the start naming it", () => {
    expect(loadConfig({}).trustedProxies.entries).toEqual([]);
    const { trustedProxies } = loadConfig({ WEBINAR_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8, fd00::/8" });
    expect(trustedProxies.entries).toEqual(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
    expect([trustedProxies.has("10.1.1.1"), trustedProxies.has("192.0.2.1")]).toEqual([true, false]);
    expect(() => loadConfig({ WEBINAR_TRUSTED_PROXIES: "127.0.0.1, proxy.internal" })).toThrow(
      /WEBINAR_TRUSTED_PROXIES must be a comma-separated list .*"proxy\.internal"/,
    );
  });

  it("a console session's idle time longer than its absolute limit fails the start: the absolute limit always holds", () => {
    expect(() =>
      loadConfig({ WEBINAR_CONSOLE_SESSION_IDLE_SECONDS: "7200", WEBINAR_CONSOLE_SESSION_MAX_SECONDS: "3600" }),
    ).toThrow(
      /WEBINAR_CONSOLE_SESSION_IDLE_SECONDS \(7200\) must not exceed WEBINAR_CONSOLE_SESSION_MAX_SECONDS \(3600\)/,
    );
    expect(
      loadConfig({ WEBINAR_CONSOLE_SESSION_IDLE_SECONDS: "3600", WEBINAR_CONSOLE_SESSION_MAX_SECONDS: "3600" }),
    ).toMatchObject({ consoleSessionIdleSeconds: 3600, consoleSessionMaxSeconds: 3600 });
  });

  it("console limits: 2 password hashes at once and 4 exports or charts per merchant by default, each read from its variable", () => {
    expect(loadConfig({})).toMatchObject({ consolePasswordHashesAtOnce: 2, consoleHeavyReadsPerMerchant: 4 });
    expect(
      loadConfig({ WEBINAR_CONSOLE_PASSWORD_HASHES_AT_ONCE: "1", WEBINAR_CONSOLE_HEAVY_READS_PER_MERCHANT: "9" }),
    ).toMatchObject({ consolePasswordHashesAtOnce: 1, consoleHeavyReadsPerMerchant: 9 });
    expect(() => loadConfig({ WEBINAR_CONSOLE_PASSWORD_HASHES_AT_ONCE: "0" })).toThrow(
      /WEBINAR_CONSOLE_PASSWORD_HASHES_AT_ONCE/,
    );
  });

  it("DATABASE_URL selects PostgreSQL and requires WEBINAR_SECRET_KEY", () => {
    expect(() => loadConfig({ DATABASE_URL: "postgres://u@h/db" })).toThrow(/WEBINAR_SECRET_KEY is required/);
    const config = loadConfig({ DATABASE_URL: "postgres://u@h/db", WEBINAR_SECRET_KEY: "ab".repeat(32) });
    expect(config.storage).toEqual({ kind: "postgres", databaseUrl: "postgres://u@h/db" });
    expect(config.secretKey?.length).toBe(32);
  });

  it.each([
    ["PORT", "http"],
    ["WEBINAR_TICKET_TTL_SECONDS", "0"],
    ["WEBINAR_PUBLIC_WATCH_ORIGIN", "https://watch.example.com/path"],
    ["WEBINAR_ALLOWED_ORIGINS", "docs.example.com"],
    ["WEBINAR_SECRET_KEY", "short"],
    ["WEBINAR_UID_MIN", "9999"],
    ["DATABASE_URL", "mysql://x"],
  ])("a bad %s fails the start naming the variable", (name, value) => {
    expect(() =>
      loadConfig({ [name]: value, WEBINAR_SECRET_KEY: name === "WEBINAR_SECRET_KEY" ? value : "ab".repeat(32) }),
    ).toThrow(new RegExp(name));
  });

  it("connection and database limits: documented defaults, each read from its variable", () => {
    expect(loadConfig({}, "/srv/app")).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
      maxHeaderBytes: 16_384,
      maxConnections: 1000,
      dbConnectTimeoutMs: 2000,
      dbStatementTimeoutMs: 1500,
    });
    expect(
      loadConfig({
        WEBINAR_HEADERS_TIMEOUT_MS: "2000",
        WEBINAR_REQUEST_TIMEOUT_MS: "4000",
        WEBINAR_KEEP_ALIVE_TIMEOUT_MS: "100",
        WEBINAR_MAX_HEADER_BYTES: "4096",
        WEBINAR_MAX_CONNECTIONS: "5",
      }),
    ).toMatchObject({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 100,
      maxHeaderBytes: 4096,
      maxConnections: 5,
    });
  });

  it.each([
    [
      { WEBINAR_HEADERS_TIMEOUT_MS: "5000", WEBINAR_REQUEST_TIMEOUT_MS: "4000" },
      /WEBINAR_HEADERS_TIMEOUT_MS \(5000\) must not exceed WEBINAR_REQUEST_TIMEOUT_MS \(4000\)/,
    ],
    [{ WEBINAR_MAX_HEADER_BYTES: "10" }, /WEBINAR_MAX_HEADER_BYTES must be between 1024 and/],
    [
      { DATABASE_URL: "postgres://user:s3cret@host:port/db", WEBINAR_SECRET_KEY: "ab".repeat(32) },
      /^DATABASE_URL is not a valid URL; the form is postgres:\/\/user:password@host:port\/database \(percent-encode special characters\)$/,
    ],
  ])("refuses %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
