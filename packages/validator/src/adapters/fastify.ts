/**
 * Fastify adapter: a plugin whose `onRequest` hook verifies every request before Fastify's router and body
 * parsing can normalize anything, reading the raw body itself; its content-type parser then hands the validated
 * body to the route (`request.body`), also on `request.webinar`. Typed structurally, so the package does not
 * depend on Fastify.
 */
import type { IncomingMessage } from "node:http";
import { adapterFailure, toRequestVerifier, type RequestVerifier, type RequestVerifierOptions, type VerifiedRequest } from "../request-verifier";
import type { RequestRejection } from "../verify-signed-request";
import { incomingNodeRequest } from "./node";

/** The parts of a Fastify request the plugin uses. */
export interface FastifyLikeRequest {
  raw: IncomingMessage;
  webinar?: VerifiedRequest | null;
}

/** The parts of a Fastify reply the plugin uses. */
export interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  headers(values: Record<string, string>): FastifyLikeReply;
  header(name: string, value: string): FastifyLikeReply;
  send(payload?: string): FastifyLikeReply;
}

/** The parts of a Fastify instance the plugin uses. */
export interface FastifyLikeInstance {
  decorateRequest(name: string, value: null): unknown;
  removeAllContentTypeParsers(): unknown;
  addContentTypeParser(
    contentType: string,
    parser: (request: FastifyLikeRequest, payload: unknown, done: (error: Error | null, body?: unknown) => void) => void,
  ): unknown;
  addHook(name: "onRequest", hook: (request: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<unknown>): unknown;
}

/** A Fastify plugin (registered with `app.register`). */
export type FastifyLikePlugin = (instance: FastifyLikeInstance, options: unknown, done: (error?: Error) => void) => void;

function send(request: FastifyLikeRequest, reply: FastifyLikeReply, rejection: RequestRejection): FastifyLikeReply {
  reply.code(rejection.status).headers(rejection.headers);
  // The body was refused or not read to its end: do not keep the connection for the rest of it.
  if (!request.raw.complete) reply.header("Connection", "close");
  return reply.send(rejection.body === null ? undefined : JSON.stringify(rejection.body));
}

/**
 * Fastify plugin verifying every request of the instance it is registered on (it is not encapsulated, like a
 * `fastify-plugin` plugin). It replaces the instance's content-type parsers: the body is read raw, verified and
 * validated before routing, and `request.body` of a route is the validated body. Unknown paths and methods get
 * the spec's envelope (404, 405) too.
 *
 * @example
 * const app = Fastify();
 * await app.register(webinarFastify(verifier));
 * app.post("/api/v1/open/viewers/upsert", async (request) => {
 *   const { merchantId, body, requestId } = request.webinar!;
 *   return { requestId, data: await upsertViewer(merchantId, body) };
 * });
 */
export function webinarFastify(verifier: RequestVerifier | RequestVerifierOptions): FastifyLikePlugin {
  const pipeline = toRequestVerifier(verifier);
  const plugin: FastifyLikePlugin = (instance, _options, done) => {
    instance.decorateRequest("webinar", null);
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser("*", (request, _payload, parsed) => parsed(null, request.webinar?.body));
    instance.addHook("onRequest", async (request, reply) => {
      let result: VerifiedRequest | RequestRejection;
      try {
        result = await pipeline.verify(incomingNodeRequest(request.raw));
      } catch (error) {
        result = adapterFailure(pipeline, error);
      }
      if (!result.ok) return send(request, reply, result);
      request.webinar = result;
      reply.headers(result.headers);
      return undefined;
    });
    done();
  };
  // What fastify-plugin sets: the hook and parser apply to the instance registering the plugin.
  Object.assign(plugin, { [Symbol.for("skip-override")]: true, [Symbol.for("fastify.display-name")]: "@org/webinar-validator" });
  return plugin;
}
