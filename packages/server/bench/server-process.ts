/**
 * The server under benchmark, in a process of its own: started from the environment, it reports its URL and
 * demo credentials over IPC and answers `cpu` with its `process.cpuUsage()`.
 */
import { Writable } from "node:stream";
// The built package, as `pnpm start` runs it (`pnpm bench:server` builds first).
import { loadConfig, startServer } from "@org/webinar-server";

const server = await startServer(loadConfig(process.env), { stdout: new Writable({ write: (_chunk, _encoding, done) => done() }) });
process.send?.({ kind: "ready", url: server.url, demo: server.demo });
process.on("message", (message: string) => {
  if (message === "cpu") process.send?.({ kind: "cpu", cpu: process.cpuUsage() });
  if (message === "stop") void server.close().then(() => process.exit(0));
});
