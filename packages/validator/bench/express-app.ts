/**
 * One of the Express 5 apps that express.bench.ts measures, run as its own process so that the load generator
 * does not share its event loop: `node --import tsx express-app.ts <kind>`, listening on a free port of
 * 127.0.0.1, which it prints as `listening <port>` on stdout. Every app answers a signed upsertViewer with the
 * same small JSON; they differ only in what runs before the route:
 *
 * - `bare`: `express.json()` only, what any JSON route costs;
 * - `webinar`: `webinarExpress` (signature, timestamp, nonce in the memory store, body schema) before
 *   `express.json()`, as the package README mounts it;
 * - `openapi-validator`: `express.json()` then express-openapi-validator on spec/openapi.yaml, which checks the
 *   body against the operation's schema only (no signature, no nonce);
 * - `signature-floor`: the least any middleware that checks this API's signature must do, and nothing more: read
 *   the raw body, hash it, compute one HMAC-SHA256 over the canonical string and compare it in constant time,
 *   parse the JSON. No timestamp window, no nonce, no schema, no error envelope: a yardstick, not a verifier.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { canonicalString, createSigner } from "@org/webinar-signing";
import { type ApiKeyRecord, createMemoryNonceStore, createRequestVerifier } from "@org/webinar-validator";
import { webinarExpress } from "@org/webinar-validator/express";
import { loadSpec } from "../scripts/spec-schemas";
import { ANSWER, APP_KINDS, type AppKind, BENCH_KEY, UPSERT_PATH } from "./express-request";

/** The nonces of a whole run stay in the store (each lives twice the clock skew): room for all of them. */
const NONCE_STORE_ENTRIES = 5_000_000;

function answer(_req: express.Request, res: express.Response): void {
  res.type("application/json").send(ANSWER);
}

function bareApp(): Express {
  const app = express();
  app.use(express.json());
  app.post(UPSERT_PATH, answer);
  return app;
}

function webinarApp(): Express {
  // The key as a server that keeps its keys in memory returns it: with its signer prepared once.
  const record: ApiKeyRecord = {
    secret: BENCH_KEY.secret,
    merchantId: "m_bench",
    status: "ACTIVE",
    signer: createSigner(BENCH_KEY.secret),
  };
  const verifier = createRequestVerifier({
    lookupKey: async (apiKey) => (apiKey === BENCH_KEY.apiKey ? record : undefined),
    nonceStore: createMemoryNonceStore({ maxEntries: NONCE_STORE_ENTRIES }),
  });
  const app = express();
  app.use(webinarExpress(verifier));
  app.use(express.json());
  app.post(UPSERT_PATH, answer);
  return app;
}

function openApiValidatorApp(): Express {
  const document = structuredClone(loadSpec().document) as unknown as {
    paths: Record<string, { post: Record<string, unknown> }>;
  };
  // x-codeSamples refer to shell and Python files its $ref resolver cannot parse.
  for (const item of Object.values(document.paths)) delete item.post["x-codeSamples"];
  const app = express();
  app.use(express.json());
  app.use(
    OpenApiValidator.middleware({
      apiSpec: document as never,
      validateRequests: true,
      validateResponses: false,
      validateSecurity: false,
    }),
  );
  app.post(UPSERT_PATH, answer);
  // Its rejections are errors passed to next(): answered as JSON with their status.
  app.use(
    (error: { status?: number; message?: string }, _req: express.Request, res: express.Response, _next: unknown) => {
      res.status(error.status ?? 500).json({ error: { message: error.message } });
    },
  );
  return app;
}

function signatureFloorApp(): Express {
  const app = express();
  app.use((req, res, next) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const header = (name: string) => String(req.headers[name]);
      const canonical = canonicalString({
        apiKey: header("x-api-key"),
        path: req.originalUrl,
        timestamp: header("x-timestamp"),
        nonce: header("x-nonce"),
        bodyHash: createHash("sha256").update(body).digest("hex"),
      });
      const expected = createHmac("sha256", BENCH_KEY.secret).update(canonical).digest();
      const given = Buffer.from(header("x-signature"), "hex");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.status(401).end();
        return;
      }
      req.body = JSON.parse(body.toString("utf8"));
      next();
    });
  });
  app.use(express.json());
  app.post(UPSERT_PATH, answer);
  return app;
}

const BUILDERS: Record<AppKind, () => Express> = {
  bare: bareApp,
  webinar: webinarApp,
  "openapi-validator": openApiValidatorApp,
  "signature-floor": signatureFloorApp,
};

const kind = process.argv[2] as AppKind;
if (!APP_KINDS.includes(kind)) throw new Error(`usage: express-app.ts <${APP_KINDS.join(" | ")}>`);
const server = createServer(BUILDERS[kind]());
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
