/**
 * The merchant console as a Hono sub-app: its API under `/console/api/` (console-openapi.yaml, one route per
 * operation of operations.ts, registered from the generated operation table) and its web app's pages and files
 * under `/console/` (page.ts). Every unsafe request's Origin is checked first, then the session (without one,
 * 401 whatever the body), the merchant's suspension, two-step enrollment, the role and a recent password
 * (operations.ts checkPerson), and only then the query and the body; answers use the admin API's envelope.
 */
import { Hono, type Context } from "hono";
import { clientAddress } from "../http/client-address";
import { createConcurrencyLimit, type ConcurrencyLimit } from "../http/concurrency-limit";
import { deviceLabel } from "../people/device-label";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import type { AppEnv } from "../http/app-env";
import { type AppServices, requestServices } from "../services";
import { answerFailure } from "../http/failure";
import { readBodyText, SMALL_BODY_BYTES } from "../http/read-body";
import { jsonResponse } from "../http/respond";
import { serveOperations } from "../http/serve-operations";
import { cookieValue } from "../http/cookies";
import { requestHeader } from "../http/request-header";
import { consoleOperations } from "@org/webinar-console-contract/validators";
import type { ConsolePerson, ConsoleRequest } from "./context";
import { checkPerson, consoleTable, type ConsoleAnswer, type ConsoleOperationId } from "./operations";
import { serveConsolePages } from "./page";
import { checkedBody, checkedQuery, checkOrigin } from "./request-check";
import { CONSOLE_COOKIE } from "./session-cookie";
import { clearSessionCookie, findSessionPerson } from "./sessions";

/** How long a merchant whose exports and charts are all running is asked to wait, in seconds. */
const HEAVY_READ_RETRY_SECONDS = 2;

function consoleRequest(c: Context<AppEnv>, services: AppServices, heavyReads: ConcurrencyLimit): ConsoleRequest {
  const url = new URL(c.req.url);
  return {
    services,
    requestId: c.get("requestId"),
    clientAddress: clientAddress(
      c.env?.incoming?.socket?.remoteAddress,
      requestHeader(c, "x-forwarded-for"),
      services.config.trustedProxies,
    ),
    device: deviceLabel(requestHeader(c, "user-agent")),
    origin: services.config.publicOrigin ?? url.origin,
    secure: url.protocol === "https:" || (services.config.publicOrigin?.startsWith("https:") ?? false),
    sessionToken: cookieValue(requestHeader(c, "cookie"), CONSOLE_COOKIE),
    answerHeaders: new Headers(),
    heavyReads,
  };
}

/** The call of an operation: its path parameters, and its query and body checked against the document. */
async function checkedCall(c: Context<AppEnv>, request: ConsoleRequest, operationId: ConsoleOperationId) {
  return {
    request,
    params: c.req.param() as Record<string, string>,
    query: checkedQuery(c, operationId),
    body:
      c.req.method === "GET"
        ? {}
        : checkedBody(operationId, await readBodyText(c, SMALL_BODY_BYTES), requestHeader(c, "content-type")),
  } as never;
}

/**
 * The answer of an operation, or of its refusal: a refusal that says when to try again (a throttled sign-in, a busy
 * console) carries `Retry-After`, the header clients and browsers read, and every answer carries what the request
 * set (a cleared cookie too).
 */
async function runOperation(
  c: Context<AppEnv>,
  services: AppServices,
  operationId: ConsoleOperationId,
  heavyReads: ConcurrencyLimit,
) {
  checkOrigin(c, services.config.publicOrigin);
  const request = consoleRequest(c, services, heavyReads);
  let response: Response;
  try {
    const answer = await answerOperation(c, request, operationId);
    response =
      answer instanceof Response
        ? answer
        : jsonResponse(answer.status, { ...answer.body, requestId: c.get("requestId") });
  } catch (error) {
    const retryAfter = error instanceof ServiceError ? error.details?.retryAfterSeconds : undefined;
    const headers = typeof retryAfter === "number" ? { "Retry-After": String(retryAfter) } : undefined;
    response = answerFailure(c, services.logger, c.get("requestId"), error, headers);
  }
  for (const [name, value] of request.answerHeaders) response.headers.append(name, value);
  return response;
}

/** Runs the checks of the module comment, in order, then the operation. */
function answerOperation(c: Context<AppEnv>, request: ConsoleRequest, operationId: ConsoleOperationId) {
  const entry = consoleTable[operationId];
  return dependencyStep(
    "STORAGE_UNAVAILABLE",
    "storage is temporarily unavailable",
    async (): Promise<ConsoleAnswer> => {
      if (entry.access === "public")
        return (entry.run as (call: never) => Promise<ConsoleAnswer>)(await checkedCall(c, request, operationId));
      const person: ConsolePerson | undefined = await findSessionPerson(request);
      if (person === undefined) {
        if (operationId === "signOut") clearSessionCookie(request);
        throw new ServiceError("CONSOLE_UNAUTHORIZED", "sign in to use the console");
      }
      c.set("merchantId", person.merchantId);
      checkPerson(entry, person, request.services.runtime.now());
      return (entry.run as (call: never, person: ConsolePerson) => Promise<ConsoleAnswer>)(
        await checkedCall(c, request, operationId),
        person,
      );
    },
  );
}

export function createConsoleApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Exports hold their slot while they stream; charts while their query runs. Per merchant, in this process.
  const heavyReads = createConcurrencyLimit({
    running: services.config.consoleHeavyReadsPerMerchant,
    waiting: 0,
    refuse: () =>
      new ServiceError(
        "CONSOLE_BUSY",
        "this merchant's exports and charts are running as many at once as allowed; try again in a moment",
        { retryAfterSeconds: HEAVY_READ_RETRY_SECONDS },
      ),
  });
  serveOperations(app, {
    operations: consoleOperations,
    prefix: "/console/api/",
    noun: "console",
    beforeRefusal: (c) => checkOrigin(c, services.config.publicOrigin),
    answer: (c, operationId) => runOperation(c, requestServices(c, services), operationId, heavyReads),
  });
  serveConsolePages(app);
  return app;
}
