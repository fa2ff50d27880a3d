/**
 * A stand-in for your service: what each operation answers once the request is verified. `webinar.operationId`
 * tells the operation, and narrows `webinar.body` to its validated, trimmed request body. Answers use the spec's
 * envelopes: `{ requestId, data }`, or `{ requestId, error: { code, message } }` with the code's HTTP status.
 */
import { randomBytes } from "node:crypto";
import { errorCatalog, operations, type ErrorCode, type UpsertViewerRequest, type Viewer } from "@org/webinar-types";
import type { VerifiedRequest } from "@org/webinar-validator";

/** The four operation paths, `/api/v1/open/viewers/upsert` and the others, for the framework's routes. */
export const operationPaths = Object.values(operations).map((operation) => operation.path);

/** An answer for the framework to send: status and JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

const success = (requestId: string, data: unknown): Answer => ({ status: 200, body: { requestId, data } });
const failure = (requestId: string, code: ErrorCode, message: string): Answer => ({
  status: errorCatalog[code].status,
  body: { requestId, error: { code, message } },
});

// In memory, per merchant: the sample's viewers and its one published webinar.
const viewers = new Map<string, Viewer>();
const DEMO_WEBINAR = "WBN8K2QX";

function upsertViewer(merchantId: string, body: UpsertViewerRequest): { viewer: Viewer; created: boolean } {
  const key = `${merchantId}\n${body.externalUserId}`;
  const existing = viewers.get(key);
  const viewer: Viewer = {
    uid: existing?.uid ?? 10_000 + viewers.size,
    externalUserId: body.externalUserId,
    phone: body.phone ?? existing?.phone ?? null,
    displayName: body.displayName === undefined ? (existing?.displayName ?? null) : body.displayName,
  };
  viewers.set(key, viewer);
  return { viewer, created: existing === undefined };
}

export async function answer(webinar: VerifiedRequest): Promise<Answer> {
  const { requestId, merchantId } = webinar;
  switch (webinar.operationId) {
    case "upsertViewer":
      return success(requestId, upsertViewer(merchantId, webinar.body));
    case "issueLoginTicket": {
      const known = [...viewers.entries()].some(
        ([key, viewer]) => key.startsWith(`${merchantId}\n`) && viewer.uid === webinar.body.uid,
      );
      if (!known) return failure(requestId, "VIEWER_NOT_FOUND", "no viewer with this uid");
      if (webinar.body.ticketCode !== DEMO_WEBINAR)
        return failure(requestId, "WEBINAR_NOT_FOUND", "no published webinar with this ticketCode");
      const loginTicket = randomBytes(24).toString("base64url");
      return success(requestId, {
        loginTicket,
        loginUrl: `https://watch.example.com/w/${DEMO_WEBINAR}#login_ticket=${loginTicket}`,
        expiresAt: new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, "Z"),
      });
    }
    default:
      return failure(requestId, "WEBINAR_NOT_FOUND", "this sample has no watch data");
  }
}
