/**
 * Signing requests, on every operation: the signature check is the same for each, so a server that verifies one
 * operation and forgets another fails here. Each operation gets a valid body and one signing mistake at a time:
 * another secret, an unknown key, a body changed after signing, another path signed, an uppercase signature, a
 * timestamp beyond the skew window (401 `OPEN_API_UNAUTHORIZED`), and its own nonce sent again (409
 * `OPEN_API_REPLAYED`).
 */
import { randomBytes } from "node:crypto";
import { createNonce } from "@org/webinar-signing";
import { operations, type OperationId } from "@org/webinar-types";
import { expectBodyAccepted, expectError, type Check } from "../check";
import type { CallOptions, RunContext } from "../run-context";
import { createViewer } from "./viewers";

/** A body each operation accepts, from this run's viewer and the given webinar. */
async function validBody(context: RunContext, operationId: OperationId): Promise<unknown> {
  const { ticketCode } = context.options;
  switch (operationId) {
    case "upsertViewer":
      return { externalUserId: context.externalUserId("signing") };
    case "issueLoginTicket": {
      const viewer = await context.once("signing-every-operation", () => createViewer(context, "signed-ticket"));
      return { uid: viewer.uid, ticketCode };
    }
    case "getWatchOverview":
      return { ticketCode, playbackMode: "REPLAY" };
    case "queryViewerWatch":
      return { ticketCode, playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 1 };
  }
}

const encoder = new TextEncoder();
const otherOperation = (operationId: OperationId): OperationId =>
  operationId === "upsertViewer" ? "getWatchOverview" : "upsertViewer";

const MISTAKES: ReadonlyArray<{
  id: string;
  title: string;
  changes(context: RunContext, operationId: OperationId, body: unknown): Partial<CallOptions>;
}> = [
  {
    id: "secret-wrong",
    title: "signed with another secret",
    changes: (context) => ({ credentials: { ...context.options.main, secret: `${context.options.main.secret}x` } }),
  },
  {
    id: "key-unknown",
    title: "an API key the server never issued",
    changes: () => ({
      credentials: {
        apiKey: `wk_conformance_${randomBytes(12).toString("hex")}`,
        secret: randomBytes(18).toString("hex"),
      },
    }),
  },
  {
    id: "body-changed",
    title: "the body sent indented after signing it compact",
    changes: (_context, _operationId, body) => ({ sentBody: encoder.encode(JSON.stringify(body, null, 1)) }),
  },
  {
    id: "other-path",
    title: "another operation's path signed",
    changes: (context, operationId) => ({
      signedPath: `${context.options.basePath}${operations[otherOperation(operationId)].path}`,
    }),
  },
  {
    id: "uppercase-hex",
    title: "the signature in uppercase hex",
    changes: () => ({ signature: (signature) => signature.toUpperCase() }),
  },
  {
    id: "stale-timestamp",
    title: "a timestamp beyond the skew window",
    changes: (context) => ({ timestamp: context.serverSeconds(-(context.options.clockSkewSeconds + 60)) }),
  },
];

const mistakeCheck = (operationId: OperationId, mistake: (typeof MISTAKES)[number]): Check => ({
  id: `signing.every-operation.${operationId}.${mistake.id}`,
  title: `${operationId}: ${mistake.title} -> 401 OPEN_API_UNAUTHORIZED`,
  async run(context) {
    const body = await validBody(context, operationId);
    const answer = await context.call({ operationId, body, ...mistake.changes(context, operationId, body) });
    expectError(answer, 401, ["OPEN_API_UNAUTHORIZED"]);
    return undefined;
  },
});

const replayCheck = (operationId: OperationId): Check => ({
  id: `signing.every-operation.${operationId}.replayed`,
  title: `${operationId}: the same signed request sent twice -> verified, then 409 OPEN_API_REPLAYED`,
  async run(context) {
    const body = await validBody(context, operationId);
    const same = { operationId, body, nonce: createNonce(), timestamp: context.serverSeconds() };
    // Verified is enough: a webinar the server does not have (404) still used the nonce up.
    expectBodyAccepted(await context.call(same));
    expectError(await context.call(same), 409, ["OPEN_API_REPLAYED"]);
    return undefined;
  },
});

export const signingEveryOperationChecks: Check[] = (Object.keys(operations) as OperationId[]).flatMap(
  (operationId) => [...MISTAKES.map((mistake) => mistakeCheck(operationId, mistake)), replayCheck(operationId)],
);
