/**
 * Run by Bun (hono-on-bun.test.ts starts it): the Hono test app through `app.request()`, as Hono's testing guide
 * does it, on Bun's own Request, Response and crypto. Prints `{ bun, answers }` with what each request got.
 */
import { operations } from "@org/webinar-types";
import { ACTIVE, createTestOptions, signedRequest } from "./fixture";
import { createHonoApp } from "./hono-app";
import { toWebRequest } from "./web-request";

const UPSERT = operations.upsertViewer.path;
const app = createHonoApp(createTestOptions());
const signed = signedRequest({ path: UPSERT, body: '{"externalUserId":" crm-bun "}' });

const requests: Record<string, Request> = {
  signedUpsert: toWebRequest(signed),
  replayedUpsert: toWebRequest(signed),
  wrongSecret: toWebRequest(
    signedRequest({ path: UPSERT, body: "{}", key: { apiKey: ACTIVE.apiKey, secret: "wrong" } }),
  ),
  trailingSlash: toWebRequest(signedRequest({ path: `${UPSERT}/`, body: "{}" })),
  getOnOperation: new Request(`http://127.0.0.1${UPSERT}`),
  ownRoot: new Request("http://127.0.0.1/"),
  ownJson: new Request("http://127.0.0.1/other", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: '{"a":1}',
  }),
};

const answers: Record<string, { status: number; requestId: string | null; body: unknown }> = {};
for (const [name, request] of Object.entries(requests)) {
  const response = await app.request(request);
  const text = await response.text();
  answers[name] = {
    status: response.status,
    requestId: response.headers.get("x-request-id"),
    body: text.startsWith("{") ? JSON.parse(text) : text,
  };
}
console.log(JSON.stringify({ bun: (process.versions as Record<string, string | undefined>).bun, answers }));
