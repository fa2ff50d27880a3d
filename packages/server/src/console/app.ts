/**
 * The merchant console as a Hono sub-app: its API under `/console/api/` (console-openapi.yaml, one route per
 * operation of operations.ts, registered from the generated operation table) and its web app's pages and files
 * under `/console/` (page.ts). Every unsafe request's Origin is checked first, then the session, the role, the
 * query and the body; answers use the admin API's envelope.
 */
import { Hono, type Context } from "hono";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import type { AppEnv } from "../http/app-env";
import { answerFailure } from "../http/failure";
import { readBodyText, SMALL_BODY_BYTES } from "../http/read-body";
import { jsonResponse } from "../http/respond";
import type { AppServices } from "../services";
import { cookieValue } from "../watch/cookies";
import { consoleOperations } from "./console-validators.gen.js";
import type { ConsolePerson, ConsoleRequest } from "./context";
import { checkRole, consoleTable, type ConsoleAnswer, type ConsoleOperationId } from "./operations";
import { serveConsolePages } from "./page";
import { checkedBody, checkedQuery, checkOrigin } from "./request-check";
import { CONSOLE_COOKIE } from "./session-cookie";
import { findSessionPerson } from "./sessions";

function consoleRequest(c: Context<AppEnv>, services: AppServices): ConsoleRequest {
  const url = new URL(c.req.url);
  return {
    services,
    requestId: c.get("requestId"),
    clientAddress: c.env?.incoming?.socket?.remoteAddress ?? "unknown",
    secure: url.protocol === "https:" || (services.config.publicOrigin?.startsWith("https:") ?? false),
    sessionToken: cookieValue(c.req.header("cookie"), CONSOLE_COOKIE),
    answerHeaders: new Headers(),
  };
}

async function runOperation(c: Context<AppEnv>, services: AppServices, operationId: ConsoleOperationId) {
  checkOrigin(c, services.config.publicOrigin);
  const request = consoleRequest(c, services);
  const entry = consoleTable[operationId];
  const call = {
    request,
    params: c.req.param() as Record<string, string>,
    query: checkedQuery(c, operationId),
    body:
      c.req.method === "GET"
        ? {}
        : checkedBody(operationId, await readBodyText(c, SMALL_BODY_BYTES), c.req.header("content-type")),
  } as never;
  const answer: ConsoleAnswer = await dependencyStep(
    "STORAGE_UNAVAILABLE",
    "storage is temporarily unavailable",
    async () => {
      if (entry.access === "public") return (entry.run as (call: never) => Promise<ConsoleAnswer>)(call);
      const person: ConsolePerson | undefined = await findSessionPerson(request);
      if (person === undefined) throw new ServiceError("CONSOLE_UNAUTHORIZED", "sign in to use the console");
      c.set("merchantId", person.merchantId);
      checkRole(entry.access, person);
      return (entry.run as (call: never, person: ConsolePerson) => Promise<ConsoleAnswer>)(call, person);
    },
  );
  const response =
    answer instanceof Response
      ? answer
      : jsonResponse(answer.status, { ...answer.body, requestId: c.get("requestId") });
  for (const [name, value] of request.answerHeaders) response.headers.append(name, value);
  return response;
}

/** Hono path of a document path: `/console/api/webinars/{ticketCode}` -> `/console/api/webinars/:ticketCode`. */
const honoPath = (path: string) => path.replace(/\{([A-Za-z]+)\}/g, ":$1");

export function createConsoleApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const routes = Object.entries(consoleOperations) as [ConsoleOperationId, { method: string; path: string }][];
  for (const [operationId, { method, path }] of routes) {
    app.on(method, honoPath(path), async (c) => {
      c.set("operationId", operationId);
      try {
        return await runOperation(c, services, operationId);
      } catch (error) {
        // A throttled sign-in says when to try again, in the header clients and browsers read.
        const retryAfter = error instanceof ServiceError ? error.details?.retryAfterSeconds : undefined;
        if (typeof retryAfter !== "number") throw error;
        return answerFailure(c, services.logger, c.get("requestId"), error, { "Retry-After": String(retryAfter) });
      }
    });
  }
  const refuse = (status: 404 | 405) => (c: Context<AppEnv>) => {
    checkOrigin(c, services.config.publicOrigin);
    throw new ServiceError(
      "REQUEST_INVALID",
      status === 404 ? "no console operation at this path" : "method not allowed",
      undefined,
      status,
    );
  };
  for (const path of new Set(routes.map(([, route]) => honoPath(route.path)))) app.all(path, refuse(405));
  app.all("/console/api/*", refuse(404));
  serveConsolePages(app, services);
  return app;
}
