/**
 * The Hono middleware on a second runtime: the test app of runners.ts (`createHonoApp`) on `Bun.serve`, run by Bun
 * itself in a child process that the Bun runner starts. It prints `{"port", "bun"}` (Bun's version) once
 * listening. Bun's `Request` offers no raw request target, so the middleware reads the path from `request.url`, as
 * it does on Workers.
 */
import { createTestOptions } from "./fixture";
import { createHonoApp } from "./hono-app";

// The little of Bun's API this file uses (the tests' TypeScript setup has no Bun types).
declare const Bun: {
  serve(options: { port: number; hostname: string; fetch(request: Request): Response | Promise<Response> }): {
    port: number;
  };
};

const app = createHonoApp(createTestOptions());
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => app.fetch(request) });
// The runtime is reported, so the runner can tell it really runs on Bun.
console.log(JSON.stringify({ port: server.port, bun: (process.versions as Record<string, string | undefined>).bun }));
