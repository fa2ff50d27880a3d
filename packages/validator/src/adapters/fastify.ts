/**
 * `@org/webinar-validator/fastify`: a Fastify plugin (made with fastify-plugin, so `request.webinar` is visible
 * where it is registered) for the four Open API operations. On their paths an `onRequest` hook verifies the
 * request, reading the raw body itself before Fastify parses anything; a `preParsing` hook then hands those same
 * bytes to the instance's own content-type parser. Every other request, and every parser of the instance, is left
 * as it was: the app's own JSON routes keep working, under `listen()` and `inject()` alike.
 *
 * @example
 * import Fastify from "fastify";
 * import { webinarFastify } from "@org/webinar-validator/fastify";
 *
 * const app = Fastify();
 * await app.register(webinarFastify(verifier));
 * app.post("/api/v1/open/viewers/upsert", async (request) => {
 *   const { merchantId, body, requestId } = request.webinar!;
 *   return { requestId, data: await upsertViewer(merchantId, body) };
 * });
 */
import { Readable } from "node:stream";
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from "fastify";
import { fastifyPlugin } from "fastify-plugin";
import { assertRequestVerifier, type RequestVerifier, type VerifiedRequest } from "../request-verifier";
import type { RequestRejection } from "../signed-request-types";
import { readNodeBody } from "./node-body";
import { incomingNodeRequest } from "./node-request";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * Set by `webinarFastify` on a verified Open API request: merchant, operation, validated and trimmed body,
     * request id. `null` on every other route.
     */
    webinar: VerifiedRequest | null;
  }
}

function sendRejection(request: FastifyRequest, reply: FastifyReply, rejection: RequestRejection): FastifyReply {
  reply.code(rejection.status).headers(rejection.headers);
  // The body was refused or not read to its end: do not keep the connection for the rest of it.
  if (request.raw.complete === false) reply.header("Connection", "close");
  return reply.send(rejection.body === null ? undefined : JSON.stringify(rejection.body));
}

/** The verified body bytes as a fresh stream, for the instance's own content-type parser. */
function replay(rawBody: Uint8Array): Readable {
  return Readable.from([Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength)], { objectMode: false });
}

/**
 * A Fastify plugin verifying the four Open API operations.
 *
 * - An operation path is verified before routing can normalize it: signature, nonce, then the body against the
 *   operation's schema. A rejected request is answered from the hook (error envelope, status, `X-Request-Id`); a
 *   verified one reaches its route with `request.webinar` set and `X-Request-Id` (and CORS headers) on the reply.
 *   `request.body` is the instance's own parse of the same bytes; `request.webinar.body` is the validated, trimmed
 *   body, typed by `operationId`.
 * - A non-canonical variant of an operation path (other letter case, trailing slash, query string, encoding, dot
 *   segments) is answered 401 `OPEN_API_UNAUTHORIZED`; a method other than POST there 405 `REQUEST_INVALID`
 *   with `Allow: POST`; a CORS preflight from an allowed origin 204.
 * - Every other request is untouched.
 *
 * Keep the instance's `bodyLimit` at least the verifier's `limits.maxBodyBytes` (both default to 1 MiB).
 */
export function webinarFastify(verifier: RequestVerifier): FastifyPluginCallback {
  assertRequestVerifier(verifier, "webinarFastify");
  const plugin: FastifyPluginCallback = (instance, _options, done) => {
    instance.decorateRequest("webinar", null);
    instance.addHook("onRequest", async (request, reply) => {
      const pathMatch = verifier.matchPath(request.raw.url ?? "");
      if (pathMatch.kind === "unknown") return undefined;
      const body = (maxBytes: number) => readNodeBody(request.raw, maxBytes);
      const result = await verifier.verify(incomingNodeRequest(request.raw, body, pathMatch));
      if (!result.ok) return sendRejection(request, reply, result);
      request.webinar = result;
      reply.headers(result.headers);
      return undefined;
    });
    instance.addHook("preParsing", async (request, _reply, payload) =>
      request.webinar === null ? payload : replay(request.webinar.rawBody),
    );
    done();
  };
  return fastifyPlugin(plugin, { fastify: "5.x", name: "@org/webinar-validator" });
}
