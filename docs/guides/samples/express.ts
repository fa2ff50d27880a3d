/**
 * Express: the app of Express's hello-world page, its own routes and JSON parser as they were, and the four
 * Webinar Open API operations beside them.
 *
 * Run: WEBINAR_API_KEY=wk_demo WEBINAR_API_SECRET=demo-secret PORT=3000 npx tsx express.ts
 */
import type { AddressInfo } from "node:net";
import express from "express";
import { webinarExpress } from "@org/webinar-validator/express";
import { answer, operationPaths } from "./operations.js";
import { verifier } from "./verifier.js";

const app = express();
const port = Number(process.env.PORT ?? 3000);

// Before express.json(): the middleware reads the raw body of the four operations itself and hands every other
// request on untouched, so express.json() still parses the app's own routes.
app.use(webinarExpress(verifier));
app.use(express.json());

app.get("/hello", (_req, res) => {
  res.send("Hello World!");
});

app.post("/other", (req, res) => {
  res.json({ received: req.body });
});

// The four operations. req.webinar is the verified request: merchant, operation, validated body, request id.
app.post(operationPaths, async (req, res) => {
  const { status, body } = await answer(req.webinar!);
  res.status(status).json(body);
});

const server = app.listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
