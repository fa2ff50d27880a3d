/**
 * The broken servers: each is the reference server with exactly one rule a client can observe broken, by a
 * proxy that rewrites what goes in or comes out. `killedBy` is the check that names the broken rule: the kit must
 * fail it (other checks may fail too).
 */
import { interactionMutants } from "./interaction-mutants";
import type { Mutation, ProxyAnswer, ProxyRequest } from "./mutating-proxy";
import {
  errorAnswer,
  errorCodeOf,
  freshNonce,
  header,
  isExchange,
  isOpenApi,
  isOperation,
  jsonOf,
  memoryMap,
  memorySet,
  rewritten,
  withData,
  withJson,
} from "./mutation-helpers";

export interface Mutant {
  name: string;
  /** The rule it breaks, as the table in the README says it. */
  rule: string;
  /** Id (or id prefix) of the check that must fail. */
  killedBy: string;
  mutation: Mutation;
}

const KNOWN_FIELDS: Record<string, readonly string[]> = {
  "/api/v1/open/viewers/upsert": ["externalUserId", "phone", "displayName"],
  "/api/v1/open/viewers/login-tickets": ["uid", "ticketCode"],
  "/api/v1/open/watch-data/overview": ["ticketCode", "playbackMode"],
  "/api/v1/open/watch-data/viewers/query": [
    "ticketCode",
    "playbackMode",
    "uids",
    "externalUserIds",
    "minWatchSeconds",
    "sort",
    "cursor",
    "pageSize",
  ],
};

const ZERO = { viewerCount: 0, sessionCount: 0, watchSeconds: 0 };
const pass = async (request: ProxyRequest) => request;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Drops a field of one operation's body (and signs again), as a server that ignores the field would. */
const ignoredField = (name: string, field: string, rule: string, killedBy: string): Mutant => ({
  name,
  rule,
  killedBy,
  mutation: {
    request: async (request, state) =>
      isOperation(request, "queryViewerWatch")
        ? rewritten(request, state, (body) => {
            if (!(field in body)) return undefined;
            delete body[field];
            return body;
          })
        : request,
  },
});

/** Swallows an admin call (answers 200 without doing it), so the state it would make never exists. */
const swallowedAdmin = (
  name: string,
  rule: string,
  killedBy: string,
  path: RegExp,
  when?: (body: Record<string, unknown>) => boolean,
): Mutant => ({
  name,
  rule,
  killedBy,
  mutation: {
    request: async (request) =>
      path.test(request.target) && (when === undefined || when(jsonOf(request) ?? {}))
        ? { answer: { status: 200, headers: { "content-type": "application/json" }, json: {}, text: "{}" } }
        : request,
  },
});

const signingMutants: Mutant[] = [
  {
    name: "replayed-nonce-accepted",
    rule: "a nonce is used once (409 OPEN_API_REPLAYED)",
    killedBy: "signing.replay.same-request",
    mutation: {
      async request(request, state) {
        const nonce = header(request, "x-nonce");
        if (!isOpenApi(request) || nonce === undefined) return request;
        const seen = memorySet(state, "nonces");
        if (!seen.has(nonce)) {
          seen.add(nonce);
          return request;
        }
        return state.resign(request, { ...request, headers: { ...request.headers, "x-nonce": freshNonce() } });
      },
    },
  },
  {
    name: "concurrent-nonce-accepted",
    rule: "a nonce is used once, also when sent twice at the same moment",
    killedBy: "concurrency.nonce",
    mutation: {
      async request(request, state) {
        const nonce = header(request, "x-nonce");
        if (!isOpenApi(request) || nonce === undefined) return request;
        const inFlight = memorySet(state, "in-flight");
        if (!inFlight.has(nonce)) {
          inFlight.add(nonce);
          setTimeout(() => inFlight.delete(nonce), 500);
          return request;
        }
        return state.resign(request, { ...request, headers: { ...request.headers, "x-nonce": freshNonce() } });
      },
    },
  },
  {
    name: "stale-timestamp-accepted",
    rule: "X-Timestamp within the skew window (401 beyond it)",
    killedBy: "signing.timestamp.past-outside",
    mutation: {
      async request(request, state) {
        const timestamp = Number(header(request, "x-timestamp"));
        const now = Math.floor(Date.now() / 1000);
        if (!isOpenApi(request) || !(now - timestamp > 300)) return request;
        return state.resign(request, { ...request, headers: { ...request.headers, "x-timestamp": String(now) } });
      },
    },
  },
  {
    name: "uppercase-signature-accepted",
    rule: "X-Signature is lowercase hex",
    killedBy: "signing.signature.uppercase-hex",
    mutation: {
      request: async (request) => {
        const signature = request.headers["x-signature"];
        return typeof signature !== "string"
          ? request
          : { ...request, headers: { ...request.headers, "x-signature": signature.toLowerCase() } };
      },
    },
  },
  {
    name: "query-signature-unchecked",
    rule: "every operation verifies the signature (here queryViewerWatch does not)",
    killedBy: "signing.every-operation.queryViewerWatch.secret-wrong",
    mutation: {
      request: async (request, state) => (isOperation(request, "queryViewerWatch") ? state.sign(request) : request),
    },
  },
  {
    name: "repeated-header-accepted",
    rule: "each signature header exactly once (400 REQUEST_INVALID)",
    killedBy: "signing.repeated-header",
    mutation: {
      request: async (request) => {
        const headers = { ...request.headers };
        for (const name of ["x-api-key", "x-timestamp", "x-nonce", "x-signature"]) {
          const value = headers[name];
          if (Array.isArray(value)) headers[name] = value[0]!;
        }
        return { ...request, headers };
      },
    },
  },
  {
    name: "content-type-unchecked",
    rule: "Content-Type: application/json (400 REQUEST_INVALID otherwise)",
    killedBy: "signing.content-type",
    mutation: {
      request: async (request) =>
        isOpenApi(request)
          ? { ...request, headers: { ...request.headers, "content-type": "application/json" } }
          : request,
    },
  },
  {
    name: "origin-unchecked",
    rule: "a browser origin the configuration does not allow (403 ORIGIN_FORBIDDEN)",
    killedBy: "signing.origin.not-allowed",
    mutation: {
      request: async (request) => {
        const headers = { ...request.headers };
        delete headers.origin;
        return { ...request, headers };
      },
    },
  },
  {
    name: "trailing-slash-accepted",
    rule: "the path exactly as given (a trailing slash is 401)",
    killedBy: "paths.trailing-slash",
    mutation: {
      request: async (request, state) =>
        isOpenApi(request) && request.target.endsWith("/")
          ? state.resign(request, { ...request, target: request.target.slice(0, -1) })
          : request,
    },
  },
  {
    name: "body-limit-too-small",
    rule: "a body of exactly the body limit is accepted",
    killedBy: "signing.body-limit.at-limit",
    mutation: {
      request: async (request) =>
        isOpenApi(request) && request.body.byteLength > 65_536
          ? { answer: errorAnswer(400, "REQUEST_INVALID") }
          : request,
    },
  },
];

const answerMutants: Mutant[] = [
  {
    name: "server-error-for-malformed-json",
    rule: "a body that is not JSON is 400 REQUEST_INVALID, never a 5xx",
    killedBy: "body.",
    mutation: {
      request: async (request) =>
        isOpenApi(request) && request.body.byteLength > 0 && jsonOf(request) === undefined
          ? { answer: errorAnswer(500, "INTERNAL_ERROR") }
          : request,
    },
  },
  {
    name: "replay-as-unavailable",
    rule: "a replay is 409 OPEN_API_REPLAYED, not a 503 to retry",
    killedBy: "signing.replay.same-request",
    mutation: {
      answer: (answer) =>
        errorCodeOf(answer) === "OPEN_API_REPLAYED" ? errorAnswer(503, "AUTH_DEPENDENCY_UNAVAILABLE") : answer,
    },
  },
  {
    name: "request-id-reused",
    rule: "every answer's requestId is unique",
    killedBy: "answers.request-id-unique",
    mutation: {
      answer: (answer) => {
        const json = answer.json as { requestId?: string } | undefined;
        if (json?.requestId !== undefined) json.requestId = "req_mutant";
        return answer;
      },
    },
  },
  {
    name: "not-found-as-400",
    rule: "an unknown webinar is 404 WEBINAR_NOT_FOUND",
    killedBy: "watch.overview.webinar-not-found",
    mutation: {
      answer: (answer) => (errorCodeOf(answer) === "WEBINAR_NOT_FOUND" ? { ...answer, status: 400 } : answer),
    },
  },
  {
    name: "unknown-fields-accepted",
    rule: "unknown fields are rejected (400 REQUEST_INVALID)",
    killedBy: "body.",
    mutation: {
      request: async (request, state) => {
        const known = KNOWN_FIELDS[request.target];
        if (known === undefined) return request;
        return rewritten(request, state, (body) => {
          const unknown = Object.keys(body).filter((field) => !known.includes(field));
          if (unknown.length === 0) return undefined;
          for (const field of unknown) delete body[field];
          return body;
        });
      },
    },
  },
  {
    name: "display-name-untrimmed",
    rule: "displayName is trimmed",
    killedBy: "body.upsertViewer",
    mutation: {
      answer: (answer, request) =>
        withData(answer, (data) => {
          const sent = isOperation(request, "upsertViewer") ? jsonOf(request)?.displayName : undefined;
          if (typeof sent === "string") (data.viewer as Record<string, unknown>).displayName = sent;
        }),
    },
  },
  {
    name: "created-always-false",
    rule: "created: true for a viewer the call made",
    killedBy: "upsert.create",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "upsertViewer") ? withData(answer, (data) => void (data.created = false)) : answer,
    },
  },
  {
    name: "login-url-ticket-in-query",
    rule: "the ticket travels in the URL fragment, never the query",
    killedBy: "tickets.login-url",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "issueLoginTicket")
          ? withData(answer, (data) => {
              data.loginUrl = String(data.loginUrl).replace("#login_ticket=", "?login_ticket=");
            })
          : answer,
    },
  },
  {
    name: "expires-at-in-the-past",
    rule: "expiresAt lies ahead",
    killedBy: "tickets.expires-at-ahead",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "issueLoginTicket")
          ? withData(answer, (data) => {
              data.expiresAt = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
            })
          : answer,
    },
  },
];

const viewerRaceMutant: Mutant = {
  name: "concurrent-upserts-both-created",
  rule: "concurrent upserts of a new externalUserId: created: true once",
  killedBy: "concurrency.upsert-new-id",
  mutation: {
    request: async (request, state) => {
      const id = isOperation(request, "upsertViewer") ? jsonOf(request)?.externalUserId : undefined;
      if (typeof id === "string") {
        const counts = memoryMap<number>(state, "in-flight");
        counts.set(id, (counts.get(id) ?? 0) + 1);
        if (counts.get(id)! > 1) memorySet(state, "racing").add(id);
      }
      return request;
    },
    answer: (answer, request, state) => {
      const id = isOperation(request, "upsertViewer") ? jsonOf(request)?.externalUserId : undefined;
      if (typeof id !== "string") return answer;
      const counts = memoryMap<number>(state, "in-flight");
      counts.set(id, counts.get(id)! - 1);
      if (memorySet(state, "racing").has(id)) withData(answer, (data) => void (data.created = true));
      return answer;
    },
  },
};

/** Remembers each ticket's viewer (key and uid) and the newest ticket of each viewer, from issueLoginTicket. */
function rememberTicket(
  answer: ProxyAnswer,
  request: ProxyRequest,
  state: Parameters<NonNullable<Mutation["answer"]>>[2],
) {
  if (!isOperation(request, "issueLoginTicket") || answer.status !== 200) return;
  const viewer = `${header(request, "x-api-key")}:${String(jsonOf(request)?.uid)}`;
  const { loginTicket } = (answer.json as { data: { loginTicket: string } }).data;
  memoryMap<string>(state, "viewer-of-ticket").set(loginTicket, viewer);
  memoryMap<{ ticketCode: string; loginTicket: string }>(state, "newest").set(viewer, {
    ticketCode: String(jsonOf(request)?.ticketCode),
    loginTicket,
  });
}

const ticketMutants: Mutant[] = [
  {
    name: "ticket-supersession-ignored",
    rule: "a newer ticket invalidates the viewer's earlier unused one",
    killedBy: "tickets.exchange.superseded",
    mutation: {
      async request(request, state) {
        const body = isExchange(request) ? jsonOf(request) : undefined;
        const viewer = memoryMap<string>(state, "viewer-of-ticket").get(String(body?.loginTicket));
        const newest =
          viewer === undefined
            ? undefined
            : memoryMap<{ ticketCode: string; loginTicket: string }>(state, "newest").get(viewer);
        return newest === undefined || newest.loginTicket === body?.loginTicket ? request : withJson(request, newest);
      },
      answer: (answer, request, state) => {
        rememberTicket(answer, request, state);
        return answer;
      },
    },
  },
  {
    name: "ticket-reusable",
    rule: "a login ticket is exchanged once",
    killedBy: "tickets.exchange.once",
    mutation: {
      async request(request, state) {
        const ticket = isExchange(request) ? String(jsonOf(request)?.loginTicket) : undefined;
        const earlier = ticket === undefined ? undefined : memoryMap<ProxyAnswer>(state, "accepted").get(ticket);
        return earlier === undefined ? request : { answer: earlier };
      },
      answer: (answer, request, state) => {
        if (isExchange(request) && answer.status === 200)
          memoryMap<ProxyAnswer>(state, "accepted").set(String(jsonOf(request)?.loginTicket), answer);
        return answer;
      },
    },
  },
  {
    name: "concurrent-exchange-doubled",
    rule: "one ticket exchanged at the same moment opens one session",
    killedBy: "concurrency.ticket-exchange",
    mutation: {
      async request(request, state) {
        const ticket = isExchange(request) ? String(jsonOf(request)?.loginTicket) : undefined;
        if (ticket === undefined) return request;
        const pending = memoryMap<Promise<ProxyAnswer>>(state, "pending");
        const first = pending.get(ticket);
        if (first !== undefined) return { answer: await first };
        let settle: (answer: ProxyAnswer) => void = () => undefined;
        pending.set(ticket, new Promise((resolve) => (settle = resolve)));
        memoryMap<(answer: ProxyAnswer) => void>(state, "settle").set(ticket, settle);
        return request;
      },
      answer: async (answer, request, state) => {
        const ticket = isExchange(request) ? String(jsonOf(request)?.loginTicket) : undefined;
        if (ticket !== undefined) {
          memoryMap<(answer: ProxyAnswer) => void>(state, "settle").get(ticket)?.(answer);
          await sleep(50);
          memoryMap(state, "pending").delete(ticket);
        }
        return answer;
      },
    },
  },
];

const stateMutants: Mutant[] = [
  swallowedAdmin(
    "revoked-key-accepted",
    "a revoked key is 401 OPEN_API_UNAUTHORIZED",
    "state.key.revoked",
    /^\/admin\/v1\/api-keys\/[^/]+\/revoke$/,
  ),
  swallowedAdmin(
    "suspension-ignored",
    "a suspended merchant is 403 TENANT_SUSPENDED",
    "state.merchant.suspended",
    /^\/admin\/v1\/merchants\/[^/]+\/status$/,
    (body) => body.status === "SUSPENDED",
  ),
  {
    name: "webinar-state-ignored",
    rule: "only a published webinar issues login tickets (404 WEBINAR_NOT_FOUND)",
    killedBy: "state.webinar.",
    mutation: {
      request: async (request) => {
        if (/^\/admin\/v1\/webinars\/[^/]+\/status$/.test(request.target))
          return { answer: { status: 200, headers: { "content-type": "application/json" }, json: {}, text: "{}" } };
        if (/^\/admin\/v1\/merchants\/[^/]+\/webinars$/.test(request.target))
          return withJson(request, { ...jsonOf(request), status: "PUBLISHED" });
        return request;
      },
    },
  },
  {
    name: "blocked-terms-ignored",
    rule: "a display name with a blocked term is 400 CONTENT_SENSITIVE",
    killedBy: "state.display-name.blocked-term",
    mutation: {
      request: async (request, state) =>
        isOperation(request, "upsertViewer")
          ? rewritten(request, state, (body) => {
              if (typeof body.displayName !== "string" || !body.displayName.includes("blocked")) return undefined;
              delete body.displayName;
              return body;
            })
          : request,
    },
  },
  {
    name: "live-gate-ignored",
    rule: "LIVE and ALL detail are 409 WATCH_DATA_NOT_FINAL while live data is not final",
    killedBy: "live.gate.live",
    mutation: {
      answer: (answer) => {
        if (errorCodeOf(answer) !== "WATCH_DATA_NOT_FINAL") return answer;
        const json = { requestId: (answer.json as { requestId: string }).requestId, data: { items: [] } };
        return { ...answer, status: 200, json };
      },
    },
  },
  {
    name: "data-state-skips-finalizing",
    rule: "dataState is FINALIZING after the live ended, until finalized",
    killedBy: "live.data-state.end",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "getWatchOverview")
          ? withData(answer, (data) => {
              if (data.dataState === "FINALIZING") data.dataState = "FINAL";
            })
          : answer,
    },
  },
];

const watchDataMutants: Mutant[] = [
  {
    name: "next-cursor-dropped",
    rule: "a page that is not the last carries nextCursor",
    killedBy: "watch.query.cursor-of-other-query",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "queryViewerWatch") ? withData(answer, (data) => void delete data.nextCursor) : answer,
    },
  },
  {
    name: "overview-zeros",
    rule: "the overview counts the recorded sessions",
    killedBy: "figures.overview",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "getWatchOverview")
          ? withData(answer, (data) => {
              Object.assign(data, {
                all: ZERO,
                registered: ZERO,
                anonymous: ZERO,
                liveWatchSeconds: 0,
                replayWatchSeconds: 0,
              });
            })
          : answer,
    },
  },
  {
    name: "anonymous-counted-as-registered",
    rule: "anonymous subjects are counted apart from registered viewers",
    killedBy: "figures.overview",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "getWatchOverview")
          ? withData(answer, (data) => {
              data.registered = data.all;
              data.anonymous = ZERO;
            })
          : answer,
    },
  },
  {
    name: "device-types-unknown",
    rule: "a record lists the devices and protocols actually recorded",
    killedBy: "figures.detail",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "queryViewerWatch")
          ? withData(answer, (data) => {
              for (const item of data.items as Array<Record<string, unknown>>) item.deviceTypes = ["UNKNOWN"];
            })
          : answer,
    },
  },
  {
    name: "first-watched-sort-reversed",
    rule: "FIRST_WATCHED_ASC pages are in ascending order",
    killedBy: "figures.detail",
    mutation: {
      answer: (answer, request) =>
        isOperation(request, "queryViewerWatch") && jsonOf(request)?.sort === "FIRST_WATCHED_ASC"
          ? withData(answer, (data) => void (data.items as unknown[]).reverse())
          : answer,
    },
  },
  {
    name: "page-size-ignored",
    rule: "a page holds at most pageSize records",
    killedBy: "pagination.",
    mutation: {
      request: async (request, state) =>
        isOperation(request, "queryViewerWatch")
          ? rewritten(request, state, (body) => (body.pageSize === 100 ? undefined : { ...body, pageSize: 100 }))
          : request,
    },
  },
  ignoredField(
    "min-watch-seconds-ignored",
    "minWatchSeconds",
    "minWatchSeconds filters records",
    "figures.filter.min-watch-seconds",
  ),
  ignoredField("uids-filter-ignored", "uids", "the uids filter selects records", "figures.filter.uids"),
  ignoredField(
    "external-ids-filter-ignored",
    "externalUserIds",
    "the externalUserIds filter selects records",
    "figures.filter.external-ids",
  ),
];

/** The reference server as it is, through the same proxy: the kit must pass it. */
export const unchanged: Mutation = { request: pass };

export const mutants: Mutant[] = [
  ...signingMutants,
  ...answerMutants,
  viewerRaceMutant,
  ...ticketMutants,
  ...stateMutants,
  ...watchDataMutants,
  ...interactionMutants,
];
