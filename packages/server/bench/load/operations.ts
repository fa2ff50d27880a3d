/**
 * The operations under load: the request body of each next request, and what a right answer looks like. The same
 * requests go to the server and to the floor app (which answers the same paths), so only the target differs.
 */
import type { Fixture } from "./fixture";

export type OperationId =
  | "upsertNewViewer"
  | "upsertExistingViewer"
  | "issueLoginTicket"
  | "getWatchOverview"
  | "queryViewerWatch";

export interface Operation {
  id: OperationId;
  label: string;
  path: string;
  /** A source of request bodies for one run: every call gives the next request's body, serialized. */
  bodies(fixture: Fixture, runId: string): () => string;
  /** Whether the `data` of a 200 answer has this operation's shape. */
  isExpectedData(data: Record<string, unknown>): boolean;
}

const DETAIL_PAGE_SIZE = 100;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Round robin over a list, so concurrent requests rarely meet on one viewer's row. */
function roundRobin<T>(items: readonly T[], body: (item: T) => object): () => string {
  let next = 0;
  return () => JSON.stringify(body(items[next++ % items.length]!));
}

const isViewer = (data: Record<string, unknown>) => isObject(data.viewer) && Number.isInteger(data.viewer.uid);

export const OPERATIONS: readonly Operation[] = [
  {
    id: "upsertNewViewer",
    label: "upsert (new viewer)",
    path: "/api/v1/open/viewers/upsert",
    bodies: (_fixture, runId) => {
      let next = 0;
      return () => JSON.stringify({ externalUserId: `new-${runId}-${next++}` });
    },
    // created false would mean the request did not create a viewer: a repeated id, not what is measured.
    isExpectedData: (data) => isViewer(data) && data.created === true,
  },
  {
    id: "upsertExistingViewer",
    label: "upsert (existing viewer)",
    path: "/api/v1/open/viewers/upsert",
    bodies: (fixture) => roundRobin(fixture.existingExternalUserIds, (externalUserId) => ({ externalUserId })),
    isExpectedData: (data) => isViewer(data) && data.created === false,
  },
  {
    id: "issueLoginTicket",
    label: "issue login ticket",
    path: "/api/v1/open/viewers/login-tickets",
    bodies: (fixture) => roundRobin(fixture.existingUids, (uid) => ({ uid, ticketCode: fixture.ticketCode })),
    isExpectedData: (data) =>
      typeof data.loginTicket === "string" && typeof data.loginUrl === "string" && typeof data.expiresAt === "string",
  },
  {
    id: "getWatchOverview",
    label: "watch-data overview",
    path: "/api/v1/open/watch-data/overview",
    bodies: (fixture) => {
      const body = JSON.stringify({ ticketCode: fixture.watchTicketCode, playbackMode: "ALL" });
      return () => body;
    },
    isExpectedData: (data) =>
      typeof data.dataState === "string" && isObject(data.all) && Number.isInteger(data.all.viewerCount),
  },
  {
    id: "queryViewerWatch",
    label: `detail page (${DETAIL_PAGE_SIZE} viewers)`,
    path: "/api/v1/open/watch-data/viewers/query",
    bodies: (fixture) => {
      const body = JSON.stringify({
        ticketCode: fixture.watchTicketCode,
        playbackMode: "ALL",
        sort: "WATCH_SECONDS_DESC",
        pageSize: DETAIL_PAGE_SIZE,
      });
      return () => body;
    },
    isExpectedData: (data) =>
      Array.isArray(data.items) &&
      data.items.length === DETAIL_PAGE_SIZE &&
      isObject(data.items[0]) &&
      Number.isInteger(data.items[0].uid),
  },
];

/** The operations of the two-process comparison: the two writes every login flow makes. */
export const TWO_PROCESS_OPERATIONS: readonly OperationId[] = ["issueLoginTicket", "upsertExistingViewer"];

export function operationById(id: OperationId): Operation {
  return OPERATIONS.find((operation) => operation.id === id)!;
}

/** Whether an answer is a success envelope `{requestId, data}` whose data fits the operation. */
export function isExpectedAnswer(operation: Operation, body: string): boolean {
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch {
    return false;
  }
  return (
    isObject(envelope) &&
    typeof envelope.requestId === "string" &&
    isObject(envelope.data) &&
    operation.isExpectedData(envelope.data)
  );
}
