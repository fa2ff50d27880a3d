/**
 * The Web adapter on a second runtime: `verifyWebRequest` mounted on `Bun.serve`, run by Bun itself in a child
 * process that the Bun runner of runners.ts starts. It prints `{"port", "bun"}` (Bun's version) once listening. Bun's `Request`
 * offers no raw request target, so the adapter reads the path from `request.url`, as it does on Workers.
 */
import { createRequestVerifier, verifyWebRequest } from "../../src/index";
import { echo } from "./echo";
import { createTestOptions } from "./fixture";

// The little of Bun's API this file uses (the tests' TypeScript setup has no Bun types).
declare const Bun: {
  serve(options: { port: number; hostname: string; fetch(request: Request): Promise<Response> }): { port: number };
};

const verifier = createRequestVerifier(createTestOptions());
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const verified = await verifyWebRequest(request, verifier);
    if (verified instanceof Response) return verified;
    return Response.json(echo(verified), { headers: verified.headers });
  },
});
// The runtime is reported, so the runner can tell it really runs on Bun.
console.log(JSON.stringify({ port: server.port, bun: (process.versions as Record<string, string | undefined>).bun }));
