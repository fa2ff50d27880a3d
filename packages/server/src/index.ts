/**
 * The reference server of the Webinar Open API as a library: build it from a configuration, listen, close.
 * `dist/main.js` is the command-line entry (`pnpm start`).
 *
 * @example
 * ```ts
 * import { loadConfig, startServer } from "@org/webinar-server";
 *
 * const server = await startServer(loadConfig({ ...process.env, PORT: "0", WEBINAR_DATA_DIR: "memory:" }));
 * console.log(server.url);
 * await server.close();
 * ```
 */
export { ConfigError, loadConfig } from "./config";
export type { ServerConfig, StorageConfig } from "./config";
export { createServer, startServer } from "./server";
export { describeStartError, StartStepError } from "./start-error";
export type { StartStage } from "./start-error";
export { DataDirLockedError } from "./data-dir-lock";
export type { ScryptCost } from "./people/passwords";
export type { ServerOptions, WebinarServer } from "./server";
export { createApp } from "./app";
export type { AppEnv } from "./http/app-env";
export type { AppServices } from "./services";
export { systemRuntime } from "./runtime";
export type { Runtime } from "./runtime";
export { createLogger } from "./logging/log";
export type { Logger } from "./logging/log";
export { DependencyUnavailableError } from "./dependency";
export { errorStatus, ServiceError } from "./errors";
export type { ServerErrorCode } from "./errors";
export type { DemoSeed } from "./seed/demo";
export type { WatchDomainResolver } from "./tickets/watch-domain";
export type { WebinarMetadata, WebinarMetadataSource } from "./tickets/webinar-metadata";
