/**
 * The operations under load: each next request (body and headers), and what a right answer looks like. The same
 * requests go to the server and to the floor app (which answers the same paths), so only the target differs.
 * The Open API operations are signed afresh per request; the watch page's heartbeat carries a viewer's session
 * cookie instead.
 */
import type { Fixture } from "./fixture";
import { signedHeaders } from "./signed-request";

export type OperationId =
  | "upsertNewViewer"
  | "upsertExistingViewer"
  | "issueLoginTicket"
  | "getWatchOverview"
  | "queryViewerWatch"
  | "heartbeat";

export interface OutgoingRequest {
  body: string;
  headers: Record<string, string>;
}

export interface Operation {
  id: OperationId;
  label: string;
  path: string;
  /** A source of requests for one run: every call gives the next request, its body serialized. */
  requests(fixture: Fixture, runId: string): () => OutgoingRequest;
  /**
   * Where a 200 answer keeps its payload: the Open API's `{requestId, data}` envelope, or the watch page API's
   * `{requestId, ...fields}`.
   */
  envelope: "data" | "inline";
  /** Whether the payload of a 200 answer has this operation's shape. */
  isExpectedData(data: Record<string, unknown>): boolean;
}

const DETAIL_PAGE_SIZE = 100;
const UPSERT_PATH = "/api/v1/open/viewers/upsert";
const TICKET_PATH = "/api/v1/open/viewers/login-tickets";
const OVERVIEW_PATH = "/api/v1/open/watch-data/overview";
const DETAIL_PATH = "/api/v1/open/watch-data/viewers/query";
export const HEARTBEAT_PATH = "/w/api/playback/heartbeat";
/** The floor app's batched heartbeat (floor-app.ts): the same request, group-committed as the server does. */
export const BATCHED_HEARTBEAT_FLOOR_PATH = "/w/api/playback/heartbeat-batched";
/** The interval the watch page sends heartbeats at: a process's heartbeats per second times it is its viewers. */
export const PAGE_HEARTBEAT_INTERVAL_SECONDS = 15;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Round robin over a list, so concurrent requests rarely meet on one viewer's row. */
function roundRobin<T>(items: readonly T[], body: (item: T) => object): () => string {
  let next = 0;
  return () => JSON.stringify(body(items[next++ % items.length]!));
}

/** Signed Open API requests of `path`, each over its exact body with a fresh nonce and timestamp. */
function signed(path: string, bodies: (fixture: Fixture, runId: string) => () => string) {
  return (fixture: Fixture, runId: string): (() => OutgoingRequest) => {
    const nextBody = bodies(fixture, runId);
    return () => {
      const body = nextBody();
      return { body, headers: signedHeaders(fixture.credentials, path, body) };
    };
  };
}

/** The heartbeats of the fixture's live viewers, round robin: each its own session cookie and playback. */
function heartbeats(fixture: Fixture): () => OutgoingRequest {
  const viewers = fixture.heartbeat?.viewers ?? [];
  if (viewers.length === 0) throw new Error("the heartbeat operation needs the fixture's live viewers");
  const requests = viewers.map((viewer) => ({
    body: JSON.stringify({ playbackId: viewer.playbackId, playing: true, ticketCode: fixture.heartbeat!.ticketCode }),
    headers: { "content-type": "application/json", cookie: viewer.cookie },
  }));
  let next = 0;
  return () => requests[next++ % requests.length]!;
}

const isViewer = (data: Record<string, unknown>) => isObject(data.viewer) && Number.isInteger(data.viewer.uid);

export const OPERATIONS: readonly Operation[] = [
  {
    id: "upsertNewViewer",
    label: "upsert (new viewer)",
    path: UPSERT_PATH,
    requests: signed(UPSERT_PATH, (_fixture, runId) => {
      let next = 0;
      return () => JSON.stringify({ externalUserId: `new-${runId}-${next++}` });
    }),
    envelope: "data",
    // created false would mean the request did not create a viewer: a repeated id, not what is measured.
    isExpectedData: (data) => isViewer(data) && data.created === true,
  },
  {
    id: "upsertExistingViewer",
    label: "upsert (existing viewer)",
    path: UPSERT_PATH,
    requests: signed(UPSERT_PATH, (fixture) =>
      roundRobin(fixture.existingExternalUserIds, (externalUserId) => ({ externalUserId })),
    ),
    envelope: "data",
    isExpectedData: (data) => isViewer(data) && data.created === false,
  },
  {
    id: "issueLoginTicket",
    label: "issue login ticket",
    path: TICKET_PATH,
    requests: signed(TICKET_PATH, (fixture) =>
      roundRobin(fixture.existingUids, (uid) => ({ uid, ticketCode: fixture.ticketCode })),
    ),
    envelope: "data",
    isExpectedData: (data) =>
      typeof data.loginTicket === "string" && typeof data.loginUrl === "string" && typeof data.expiresAt === "string",
  },
  {
    id: "getWatchOverview",
    label: "watch-data overview",
    path: OVERVIEW_PATH,
    requests: signed(OVERVIEW_PATH, (fixture) => {
      const body = JSON.stringify({ ticketCode: fixture.watchTicketCode, playbackMode: "ALL" });
      return () => body;
    }),
    envelope: "data",
    isExpectedData: (data) =>
      typeof data.dataState === "string" && isObject(data.all) && Number.isInteger(data.all.viewerCount),
  },
  {
    id: "queryViewerWatch",
    label: `detail page (${DETAIL_PAGE_SIZE} viewers)`,
    path: DETAIL_PATH,
    requests: signed(DETAIL_PATH, (fixture) => {
      const body = JSON.stringify({
        ticketCode: fixture.watchTicketCode,
        playbackMode: "ALL",
        sort: "WATCH_SECONDS_DESC",
        pageSize: DETAIL_PAGE_SIZE,
      });
      return () => body;
    }),
    envelope: "data",
    isExpectedData: (data) =>
      Array.isArray(data.items) &&
      data.items.length === DETAIL_PAGE_SIZE &&
      isObject(data.items[0]) &&
      Number.isInteger(data.items[0].uid),
  },
  {
    id: "heartbeat",
    label: "watch-page heartbeat",
    path: HEARTBEAT_PATH,
    requests: heartbeats,
    envelope: "inline",
    // A heartbeat of an open session that is playing: 200 with the session's figures, not ended. Heartbeats come
    // faster than the page's interval here; each still answers 200 and credits the time since the previous one.
    isExpectedData: (data) =>
      typeof data.playbackId === "string" &&
      Number.isInteger(data.creditedSeconds) &&
      Number.isInteger(data.watchSeconds) &&
      data.ended === false,
  },
];

/** The operations of the two-process comparison: the two writes every login flow makes, and the heartbeats. */
export const TWO_PROCESS_OPERATIONS: readonly OperationId[] = ["issueLoginTicket", "upsertExistingViewer", "heartbeat"];

export function operationById(id: OperationId): Operation {
  return OPERATIONS.find((operation) => operation.id === id)!;
}

/** Whether an answer is a success envelope with a `requestId` whose payload fits the operation. */
export function isExpectedAnswer(operation: Operation, body: string): boolean {
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    return false;
  }
  if (!isObject(envelope) || typeof envelope.requestId !== "string") return false;
  const payload = operation.envelope === "data" ? envelope.data : envelope;
  return isObject(payload) && operation.isExpectedData(payload);
}
