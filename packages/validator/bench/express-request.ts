/**
 * What express.bench.ts sends and what its apps (express-app.ts) answer: a typical upsertViewer body, signed
 * per request as a merchant's backend signs it (a fresh nonce and timestamp, HMAC-SHA256 over the canonical
 * string of @org/webinar-signing, computed with node:crypto as a server's client would), and one small JSON answer.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { canonicalString } from "@org/webinar-signing";

export const APP_KINDS = ["bare", "webinar", "openapi-validator", "signature-floor"] as const;
export type AppKind = (typeof APP_KINDS)[number];

export const UPSERT_PATH = "/api/v1/open/viewers/upsert";
export const UPSERT_BODY = '{"externalUserId":"crm-000123","phone":"13800138000","displayName":"Alice Chen"}';
export const BENCH_KEY = { apiKey: "wk_live_7Qm2x9Lp4Rt8Vb1N", secret: "Vq7#tR2m!Lp9@xZ4&nB6^wK1" } as const;

/** What every app answers: the same bytes, so only the work before the route differs. */
export const ANSWER = JSON.stringify({ requestId: "req_bench", data: { ok: true } });

const bodyHash = createHash("sha256").update(UPSERT_BODY).digest("hex");

/** The headers of one signed POST of UPSERT_BODY to UPSERT_PATH. */
export function signedUpsertHeaders(): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString("hex");
  const canonical = canonicalString({ apiKey: BENCH_KEY.apiKey, path: UPSERT_PATH, timestamp, nonce, bodyHash });
  return {
    "content-type": "application/json",
    "x-api-key": BENCH_KEY.apiKey,
    "x-timestamp": timestamp,
    "x-nonce": nonce,
    "x-signature": createHmac("sha256", BENCH_KEY.secret).update(canonical).digest("hex"),
  };
}
