/**
 * Fastify: the app of Fastify's getting-started page, its own JSON route as it was, and the four Webinar Open API
 * operations beside it.
 *
 * Run: WEBINAR_API_KEY=wk_demo WEBINAR_API_SECRET=demo-secret PORT=3000 npx tsx fastify.ts
 */
import Fastify from "fastify";
import { webinarFastify } from "@org/webinar-validator/fastify";
import { answer, operationPaths } from "./operations.js";
import { verifier } from "./verifier.js";

const app = Fastify();
const port = Number(process.env.PORT ?? 3000);

// A plugin made with fastify-plugin: register it on the instance that has the operations' routes.
await app.register(webinarFastify(verifier));

app.get("/hello", async () => ({ hello: "world" }));

app.post("/other", async (request) => ({ received: request.body }));

// The four operations. request.webinar is the verified request: merchant, operation, validated body, request id.
for (const path of operationPaths) {
  app.post(path, async (request, reply) => {
    const { status, body } = await answer(request.webinar!);
    return reply.code(status).send(body);
  });
}

const address = await app.listen({ port, host: "127.0.0.1" });
console.log(`listening on ${address}`);
