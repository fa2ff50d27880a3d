/**
 * `createWebinarClient`: the four operations of the Webinar Open API as typed methods on one openapi-fetch client
 * (`client.raw`) and its signing middleware, plus retries, pagination, id batching and waiting for final data.
 * Every call of every method is a `client.raw.POST`: one path, signed by the middleware on every attempt.
 */
import { operations, type paths } from "@org/webinar-types";
import createClient from "openapi-fetch";
import { resolveClientOptions, type WebinarClientOptions } from "./client-options";
import { noFollowRedirect } from "./no-follow-redirect";
import { createOperationCall } from "./operation-call";
import type { CallRuntime } from "./send-call";
import { createSigning } from "./signing-middleware";
import { createViewerWatchMethods, type ViewerWatchCalls } from "./viewer-watch-methods";
import type { WebinarClient } from "./webinar-client";

/**
 * Creates a client. Options are checked here: a missing secret, a base URL with a query string or a browser
 * environment fail now, not on the first request.
 *
 * @example
 * import { createWebinarClient } from "@org/webinar-client";
 *
 * const client = createWebinarClient({
 *   baseUrl: process.env.WEBINAR_BASE_URL!,
 *   apiKey: process.env.WEBINAR_API_KEY!,
 *   secret: process.env.WEBINAR_API_SECRET!,
 * });
 * const { viewer } = await client.upsertViewer({ externalUserId: "crm-10086" });
 * const { loginUrl } = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: "WBN8K2QX" });
 */
export function createWebinarClient(options: WebinarClientOptions): WebinarClient {
  const signing = createSigning(options);
  const { baseUrl, defaults, runtime: injected } = resolveClientOptions(options);
  const runtime: CallRuntime = { ...injected, skew: signing.skew };
  const raw = createClient<paths>({ baseUrl, fetch: runtime.fetch, redirect: noFollowRedirect() });
  raw.use(signing.middleware);
  // Signing must see the final request, so middlewares added later through client.raw.use() go before it.
  const use = raw.use.bind(raw);
  raw.use = (...middlewares) => {
    raw.eject(signing.middleware);
    use(...middlewares, signing.middleware);
  };
  const call = createOperationCall(runtime, defaults, new URL(baseUrl).pathname.replace(/\/$/, ""));
  const getWatchOverview: WebinarClient["getWatchOverview"] = (body, callOptions) =>
    call("getWatchOverview", (init) => raw.POST(operations.getWatchOverview.path, init), body, callOptions);
  const queryPage: ViewerWatchCalls["queryPage"] = (body, callOptions) =>
    call("queryViewerWatch", (init) => raw.POST(operations.queryViewerWatch.path, init), body, callOptions);
  return {
    upsertViewer: (body, callOptions) =>
      call("upsertViewer", (init) => raw.POST(operations.upsertViewer.path, init), body, callOptions),
    issueLoginTicket: (body, callOptions) =>
      call("issueLoginTicket", (init) => raw.POST(operations.issueLoginTicket.path, init), body, callOptions),
    getWatchOverview,
    ...createViewerWatchMethods({ queryPage, getWatchOverview }, runtime),
    raw,
  };
}
