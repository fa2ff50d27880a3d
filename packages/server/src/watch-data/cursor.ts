/**
 * Opaque keyset cursors of the detail query (queryViewerWatch): `c1.<payload>.<mac>`, the payload holding a hash of the
 * query (webinar, mode, filters, sort; not pageSize) and the sort key of the last item, the MAC (HMAC-SHA256
 * under a key derived from the server's secret key, so every process sharing the database accepts it) making
 * any edited or invented cursor invalid. A cursor of another query, or not made here: WATCH_REQUEST_INVALID.
 */
import { createHmac, hash, timingSafeEqual } from "node:crypto";
import { ServiceError } from "../errors";

export interface CursorPosition {
  /** The last item's sort value: seconds, or a time in epoch milliseconds. */
  value: number;
  uid: number;
}

/** Identifies a query for its cursors: changing any of these drops the cursor (queryViewerWatch). */
export function queryFingerprint(query: object): string {
  return hash("sha256", JSON.stringify(query), "base64url").slice(0, 22);
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac("sha256", key).update(payload).digest().subarray(0, 16);
}

export function encodeCursor(key: Buffer, fingerprint: string, position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify({ q: fingerprint, v: position.value, u: position.uid })).toString(
    "base64url",
  );
  return `c1.${payload}.${mac(key, payload).toString("base64url")}`;
}

function mismatch(): ServiceError {
  return new ServiceError("WATCH_REQUEST_INVALID", "cursor does not match this query");
}

export function decodeCursor(key: Buffer, fingerprint: string, cursor: string): CursorPosition {
  const [version, payload, tag] = cursor.split(".");
  if (version !== "c1" || payload === undefined || tag === undefined) throw mismatch();
  const expected = mac(key, payload);
  const given = Buffer.from(tag, "base64url");
  // Base64 decoding ignores a last character's unused bits: re-encoding refuses a cursor edited only there.
  if (given.length !== expected.length || given.toString("base64url") !== tag || !timingSafeEqual(given, expected)) {
    throw mismatch();
  }
  const { q, v, u } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
    q: unknown;
    v: unknown;
    u: unknown;
  };
  if (q !== fingerprint || typeof v !== "number" || typeof u !== "number") throw mismatch();
  return { value: v, uid: u };
}
