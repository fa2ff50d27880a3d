/**
 * The HTTP surface: `/healthz`, the admin API, the watch page and its ticket exchange, and, for every other
 * request, the Open API behind @org/webinar-validator. The Open API route is the catch-all so that whatever a
 * client sends (unknown paths, other letter case, encoded or dotted variants of an operation path) reaches the
 * verifier with the request target exactly as received (`c.env.incoming.url` under @hono/node-server): the
 * verifier, not Hono's router, decides 404, 405 and 401 non-canonical path.
 */
import type { HttpBindings } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { sql } from "kysely";
import {
  parseAndValidate,
  readNodeBody,
  rejectionResponse,
  verifySignedRequest,
  verifyWebRequest,
  type RequestRejection,
  type SignedRequest,
  type VerifiedRequest,
} from "@org/webinar-validator";
import { StaleCredentialError } from "./auth/credential-cache";
import { NonceReplayedError, NonceStoreFailure } from "./auth/nonce-claim";
import { authorizeAdmin } from "./admin/authorize";
import { adminRoutes, createAdminRunner } from "./admin/routes";
import { errorEnvelope, ServiceError } from "./errors";
import { CLIENT_CLOSED_REQUEST, clientWentAway } from "./http/client-gone";
import { parseJsonObjectBody } from "./http/json-object-body";
import { errorResponse, jsonResponse, newRequestId, type ErrorOutcome } from "./http/respond";
import { readBodyText } from "./http/read-body";
import { securityHeaders } from "./http/security-headers";
import { runOperation } from "./open-api/operations";
import type { AppServices } from "./services";
import { watchPage } from "./watch/page";
import { exchangeForSession, parseExchangeBody } from "./watch/session-exchange";
import { ANON_COOKIE, heartbeatPlayback, resolveViewer, startPlayback } from "./watch/playback";
import { dependencyStep } from "./dependency";

/** Hono environment of the app: node-server bindings (absent under `app.request` in tests) and per-request facts. */
export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: { requestId: string; merchantId?: string; operationId?: string; errorCode?: string };
};

/** The validator's headers of its error answers (its ERROR_RESPONSE_HEADERS), for the answers built here. */
const VALIDATOR_ERROR_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json; charset=utf-8" });

/** Bodies of the admin API and the exchange are small JSON documents. */
const SMALL_BODY_BYTES = 64 * 1024;

function rawTarget(c: Context<AppEnv>): string | undefined {
  return c.env?.incoming?.url;
}

/** The path for the access log, without query string (a query may carry anything a client put there). */
function loggedPath(c: Context<AppEnv>): string {
  const target = rawTarget(c) ?? new URL(c.req.url).pathname;
  const end = target.search(/[?#]/);
  return (end < 0 ? target : target.slice(0, end)).slice(0, 256);
}

export function createApp(services: AppServices): Hono<AppEnv> {
  const { logger, config } = services;
  const app = new Hono<AppEnv>();
  const runAdmin = createAdminRunner(services);

  app.use("*", async (c, next) => {
    const started = performance.now();
    c.set("requestId", newRequestId());
    await next();
    const requestId = c.res.headers.get("X-Request-Id") ?? c.get("requestId");
    logger.info(
      {
        requestId,
        method: c.req.method,
        path: loggedPath(c),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        operationId: c.get("operationId"),
        merchantId: c.get("merchantId"),
        errorCode: c.get("errorCode"),
      },
      "request",
    );
  });

  app.use("*", securityHeaders);

  /**
   * The answer to a thrown error (http/respond.ts), except when the client went away mid-request: nobody is left
   * to answer, and that is no server failure, so it is logged at info, not as a 500.
   */
  const failure = (c: Context<AppEnv>, requestId: string, error: unknown, headers?: Record<string, string>): ErrorOutcome => {
    if (clientWentAway(c.env?.incoming)) {
      logger.info({ requestId, path: loggedPath(c) }, "the client closed the connection before its request was complete");
      return { response: new Response(null, { status: CLIENT_CLOSED_REQUEST }), code: "CLIENT_CLOSED_REQUEST" };
    }
    return errorResponse(requestId, error, logger, headers);
  };

  app.onError((error, c) => {
    const { response, code } = failure(c, c.get("requestId"), error);
    c.set("errorCode", code);
    return response;
  });

  app.get("/healthz", async (c) => {
    const requestId = c.get("requestId");
    try {
      await sql`select 1`.execute(services.db);
      return jsonResponse(requestId, 200, { requestId, status: "ok" });
    } catch (error) {
      logger.warn({ requestId, err: error }, "health check: database unavailable");
      c.set("errorCode", "STORAGE_UNAVAILABLE");
      return jsonResponse(requestId, 503, { requestId, status: "unavailable", error: { code: "STORAGE_UNAVAILABLE", message: "the database is unavailable" } });
    }
  });

  // Admin API, routes from admin-openapi.yaml.
  const adminPaths = new Set<string>();
  for (const route of adminRoutes()) {
    adminPaths.add(route.path);
    app.on(route.method, route.path, async (c) => {
      const requestId = c.get("requestId");
      const authorization = c.req.header("authorization");
      const text = await readBodyText(c.req.raw, SMALL_BODY_BYTES);
      const result = await runAdmin(route.operationId, c.req.param() as Record<string, string>, text, c.req.header("content-type"), authorization);
      return jsonResponse(requestId, result.status, { ...result.body, requestId });
    });
  }
  const adminFallback = (status: 404 | 405) => async (c: Context<AppEnv>) => {
    authorizeAdmin(c.req.header("authorization"), config.adminToken);
    throw new ServiceError("REQUEST_INVALID", status === 404 ? "no admin operation at this path" : "method not allowed", undefined, status);
  };
  for (const path of adminPaths) app.all(path, adminFallback(405));
  app.all("/admin/*", adminFallback(404));

  // Watch page and its ticket exchange.
  app.post("/w/api/session", async (c) => {
    const requestId = c.get("requestId");
    if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
      throw new ServiceError("REQUEST_INVALID", "Content-Type must be application/json");
    }
    const body = parseExchangeBody(await readBodyText(c.req.raw, SMALL_BODY_BYTES));
    const secure = new URL(c.req.url).protocol === "https:" || (config.publicWatchOrigin?.startsWith("https:") ?? false);
    const result = await exchangeForSession(body, services, secure);
    return jsonResponse(requestId, 200, { requestId, ...result.body }, { "Set-Cookie": result.setCookie });
  });
  app.all("/w/api/session", () => {
    throw new ServiceError("REQUEST_INVALID", "method not allowed", undefined, 405);
  });
  app.get("/w/:ticketCode{[A-Za-z0-9_-]{1,64}}", (c) => watchPage(c.req.param("ticketCode")));

  // The watch page's playback API (watch/playback.ts): start, heartbeat, stop.
  const playbackDeps = { db: services.db, runtime: services.runtime };
  const playbackKeys = { start: ["mode", "protocol", "deviceType", "ticketCode"], heartbeat: ["playbackId", "playing", "ticketCode"], stop: ["playbackId", "playing", "ticketCode"] } as const;
  for (const action of ["start", "heartbeat", "stop"] as const) {
    app.post(`/w/api/playback/${action}`, async (c) => {
      const requestId = c.get("requestId");
      if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
        throw new ServiceError("REQUEST_INVALID", "Content-Type must be application/json");
      }
      const body = parseJsonObjectBody(await readBodyText(c.req.raw, SMALL_BODY_BYTES), playbackKeys[action]);
      const { viewer, newAnonymousId } = await dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", () =>
        resolveViewer(playbackDeps, c.req.header("cookie"), body.ticketCode, action === "start"),
      );
      const result =
        action === "start"
          ? await dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", () => startPlayback(playbackDeps, viewer, body))
          : await dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", () => heartbeatPlayback(playbackDeps, viewer, body, action === "stop"));
      const secure = new URL(c.req.url).protocol === "https:" || (config.publicWatchOrigin?.startsWith("https:") ?? false);
      const headers: Record<string, string> =
        newAnonymousId === undefined ? {} : { "Set-Cookie": `${ANON_COOKIE}=${newAnonymousId}; Path=/w; Max-Age=31536000; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}` };
      return jsonResponse(requestId, 200, { requestId, ...result }, headers);
    });
    app.all(`/w/api/playback/${action}`, () => {
      throw new ServiceError("REQUEST_INVALID", "method not allowed", undefined, 405);
    });
  }

  /**
   * Under @hono/node-server the verifier reads the Node request itself: the target as received, every header
   * value (headersDistinct), the body stream; without it (app.request in tests) the Web Request.
   */
  const verify = async (c: Context<AppEnv>, readBody?: Uint8Array): Promise<VerifiedRequest | Response> => {
    const incoming = c.env?.incoming;
    const stale = services.staleCredentials;
    if (incoming === undefined) {
      if (stale === undefined) return verifyWebRequest(c.req.raw, services.verifier);
      const copy = c.req.raw.clone();
      const first = await verifyWebRequest(c.req.raw, services.verifier);
      return staleAnswer(first, c.req.header("x-api-key"), c.req.header("x-nonce")) ? verifyWebRequest(copy, services.verifier) : first;
    }
    let result: VerifiedRequest | RequestRejection;
    try {
      let body: Uint8Array | undefined;
      const request = {
        method: incoming.method ?? "",
        rawPath: incoming.url ?? "",
        headers: incoming.headersDistinct,
        body: readBody ?? (async (maxBytes: number) => (body = await readNodeBody(incoming, maxBytes))),
      };
      result = await services.verifier.verify(request);
      if (!result.ok && body !== undefined && staleAnswer(result.status, incoming.headersDistinct["x-api-key"]?.[0], incoming.headersDistinct["x-nonce"]?.[0])) {
        // The cached credential went stale (revoked key, suspended merchant) and no nonce was consumed: verify
        // once more, now from the database, so the answer is the one the current state gives.
        result = await services.verifier.verify({ ...request, body });
      }
    } catch (error) {
      const requestId = c.get("requestId");
      return failure(c, requestId, error).response;
    }
    if (result.ok) return result;
    const response = rejectionResponse(result);
    // A body refused before it was read to its end: do not keep the connection for the rest of it.
    if (!incoming.complete) response.headers.set("Connection", "close");
    return response;
  };

  /** Whether a 503 answer came from a stale cached credential (see auth/credential-cache.ts); forgets it. */
  function staleAnswer(answer: number | Response | VerifiedRequest, apiKey: string | undefined, nonce: string | undefined): boolean {
    const status = typeof answer === "number" ? answer : answer instanceof Response ? answer.status : 200;
    return status === 503 && apiKey !== undefined && nonce !== undefined && services.staleCredentials?.takeStale(apiKey, nonce) === true;
  }

  /**
   * The Open API with the nonce consumed by the operation's own statement (services.nonceDeferral): the same
   * checks as the verifier in the same order (signature checks, then the nonce, then the body), except that the
   * nonce is consumed together with the operation's write (upsert, ticket) or right before it (everything else,
   * and an invalid body). A stale cached credential (revoked key, suspended merchant) consumes nothing and
   * falls back to the standard verification from the database: `{ stale: body }`.
   */
  const deferredOpenApi = async (c: Context<AppEnv>, incoming: NonNullable<AppEnv["Bindings"]["incoming"]>, deferral: NonNullable<AppServices["nonceDeferral"]>): Promise<Response | { stale: Uint8Array }> => {
    let body: Uint8Array | undefined;
    let signed: SignedRequest | RequestRejection;
    try {
      signed = await verifySignedRequest(
        { method: incoming.method ?? "", rawPath: incoming.url ?? "", headers: incoming.headersDistinct, body: async (maxBytes) => (body = await readNodeBody(incoming, maxBytes)) },
        deferral.options,
      );
    } catch (error) {
      return failure(c, c.get("requestId"), error).response;
    }
    if (!signed.ok) {
      const response = rejectionResponse(signed);
      if (!incoming.complete) response.headers.set("Connection", "close");
      return response;
    }
    const { merchantId, apiKey, operationId, requestId, headers } = signed;
    const reject = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
      rejectionResponse({ ok: false, status, body: errorEnvelope(requestId, code, message, details) as RequestRejection["body"], headers: { ...VALIDATOR_ERROR_HEADERS, ...headers } });
    const claim = deferral.claim(apiKey, incoming.headersDistinct["x-nonce"]![0]!);
    try {
      const parsed = parseAndValidate(operationId, signed.body);
      if (!parsed.ok) {
        await claim.consumeSeparately();
        return reject(parsed.status, parsed.error.code, parsed.error.message, parsed.error.details as Record<string, unknown> | undefined);
      }
      c.set("merchantId", merchantId);
      c.set("operationId", operationId);
      const verified = { ok: true, merchantId, apiKey, operationId, body: parsed.value, requestId, headers } as VerifiedRequest;
      try {
        const data = await runOperation(verified, services, claim);
        await claim.consumeSeparately(); // a no-op: every operation consumed it (a safety net for a new path)
        return jsonResponse(requestId, 200, { requestId, data }, headers);
      } catch (error) {
        if (error instanceof StaleCredentialError || error instanceof NonceReplayedError || error instanceof NonceStoreFailure) throw error;
        // The statement that was to consume the nonce failed because the storage is unavailable: the nonce store
        // is that same storage, so this is answered as its failure (as the verifier answers it), at once instead
        // of after a second wait. The failed statement wrote neither the nonce nor the operation's change.
        if (error instanceof ServiceError && error.status === 503 && !claim.consumed) throw new NonceStoreFailure((error as { cause?: unknown }).cause ?? error);
        // A verified request consumes its nonce whatever its outcome (as the verifier did before the operation).
        await claim.consumeSeparately();
        const { response, code } = failure(c, requestId, error, headers);
        c.set("errorCode", code);
        return response;
      }
    } catch (error) {
      if (error instanceof StaleCredentialError) {
        deferral.invalidate(apiKey);
        services.staleCredentials?.takeStale(apiKey, claim.nonce);
        c.set("merchantId", undefined);
        c.set("operationId", undefined);
        return { stale: body! };
      }
      if (error instanceof NonceReplayedError) return reject(409, "OPEN_API_REPLAYED", "nonce already used: sign every request, including retries, with a new nonce");
      if (error instanceof NonceStoreFailure) {
        services.verifier.options.onError?.(error.cause, "nonceStore");
        return reject(503, "AUTH_DEPENDENCY_UNAVAILABLE", "authentication is temporarily unavailable");
      }
      throw error;
    }
  };

  // Everything else: the Open API.
  app.all("*", async (c) => {
    let staleBody: Uint8Array | undefined;
    const incoming = c.env?.incoming;
    if (incoming !== undefined && services.nonceDeferral !== undefined) {
      const answer = await deferredOpenApi(c, incoming, services.nonceDeferral);
      if (answer instanceof Response) return answer;
      staleBody = answer.stale;
    }
    const verified = await verify(c, staleBody);
    if (verified instanceof Response) return verified;
    c.set("merchantId", verified.merchantId);
    c.set("operationId", verified.operationId);
    try {
      const data = await runOperation(verified, services);
      return jsonResponse(verified.requestId, 200, { requestId: verified.requestId, data }, verified.headers);
    } catch (error) {
      const { response, code } = failure(c, verified.requestId, error, verified.headers);
      c.set("errorCode", code);
      return response;
    }
  });

  return app;
}
