/**
 * Traces: the real server process with the standard OTEL_* variables pointing at a local OTLP receiver speaking
 * http/json (a small node:http server here). A signed request sent with a W3C `traceparent` appears in that trace
 * as one span named by its operation, child of the caller's span, with child spans for the verification, the nonce
 * claim and the database statements; no attribute of any span carries the secret, the signature, the nonce, a
 * login ticket, the phone number or the body. A request-log batch is one root span with its statement under it,
 * and no statement is a root span of its own; a request its caller did not sample makes no span at all. Without
 * those variables the server makes no span.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { signRequest } from "@org/webinar-signing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP receiver of JSON trace exports: every span it was sent, with its service name. */
async function otlpReceiver(): Promise<{
  url: string;
  spans: OtlpSpan[];
  services: Set<string>;
  close(): Promise<void>;
}> {
  const spans: OtlpSpan[] = [];
  const services = new Set<string>();
  const server: Server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces" && request.headers["content-type"]?.startsWith("application/json")) {
        const body = JSON.parse(text) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: OtlpSpan[] }[];
          }[];
        };
        for (const resourceSpans of body.resourceSpans) {
          const name = resourceSpans.resource.attributes.find((attribute) => attribute.key === "service.name");
          if (name?.value.stringValue !== undefined) services.add(name.value.stringValue);
          for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans);
        }
      }
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    services,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** A span's attributes by key, each its one value. */
const attributesOf = (span: OtlpSpan): Record<string, unknown> =>
  Object.fromEntries((span.attributes ?? []).map((attribute) => [attribute.key, Object.values(attribute.value)[0]]));

async function signedPost(
  server: ServerProcess,
  credentials: { apiKey: string; secret: string },
  path: string,
  body: unknown,
  traceparent: string,
) {
  const raw = JSON.stringify(body);
  const { headers } = await signRequest({ ...credentials, path, body: raw });
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { ...headers, traceparent },
    body: raw,
  });
  return {
    status: response.status,
    body: (await response.json()) as any,
    sent: { ...headers } as Record<string, string>,
    raw,
  };
}

async function spansOfTrace(receiver: { spans: OtlpSpan[] }, traceId: string, names: string[]): Promise<OtlpSpan[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = receiver.spans.filter((span) => span.traceId === traceId);
    if (names.every((name) => found.some((span) => span.name === name))) return found;
    if (Date.now() > deadline)
      throw new Error(`spans ${names.join(", ")} not all received: ${found.map((span) => span.name).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("OpenTelemetry traces over OTLP http/json", () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let server: ServerProcess;

  beforeAll(async () => {
    receiver = await otlpReceiver();
    server = await startServerProcess({
      WEBINAR_DATA_DIR: "memory:",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "webinar-trace-test",
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("continues the caller's trace: the operation's span, with its verification and statements under it, and no secret anywhere", async () => {
    const merchant = await adminMerchant(server);
    const traceId = hex(16);
    const callerSpan = hex(8);
    const traceparent = `00-${traceId}-${callerSpan}-01`;
    const phone = "13912345678";
    const upsert = await signedPost(
      server,
      merchant,
      "/api/v1/open/viewers/upsert",
      { externalUserId: "traced-1", phone, displayName: "Traced Viewer" },
      traceparent,
    );
    expect(upsert).toMatchObject({ status: 200 });
    const ticket = await signedPost(
      server,
      merchant,
      "/api/v1/open/viewers/login-tickets",
      { uid: upsert.body.data.viewer.uid, ticketCode: merchant.ticketCode },
      traceparent,
    );
    expect(ticket.status).toBe(200);

    const spans = await spansOfTrace(receiver, traceId, ["upsertViewer", "issueLoginTicket", "verify request"]);
    const request = spans.find((span) => span.name === "upsertViewer")!;
    expect(request.parentSpanId).toBe(callerSpan);
    const attributes = attributesOf(request);
    expect(attributes).toMatchObject({
      "webinar.operation": "upsertViewer",
      "webinar.surface": "open",
      "http.request.method": "POST",
      "webinar.request_id": upsert.body.requestId,
    });
    expect(String(attributes["http.response.status_code"])).toBe("200");
    const childrenOf = (parent: OtlpSpan) => spans.filter((span) => span.parentSpanId === parent.spanId);
    const verify = childrenOf(request).find((span) => span.name === "verify request");
    expect(attributesOf(verify!)).toMatchObject({ "webinar.verified": true });
    // The nonce claim is no span of its own, and its statement, written for every request that arrived with it,
    // is in no request's trace.
    expect(spans.map((span) => span.name)).not.toContain("claim nonce");
    expect(spans.filter((span) => attributesOf(span)["db.query.summary"] === "INSERT open_api_nonces")).toEqual([]);
    // The statements of the request (its upsert) are its children.
    expect(childrenOf(request).filter((span) => span.name.startsWith("db "))).not.toEqual([]);
    // The upsert is a fixed statement: its span names it by summary and prepared name, without its long text.
    const upsertStatement = childrenOf(request).find(
      (span) => attributesOf(span)["db.query.summary"] === "INSERT viewers",
    );
    expect(attributesOf(upsertStatement!)).toMatchObject({
      "db.system.name": "postgresql",
      "webinar.statement_name": expect.stringMatching(/^webinar_[0-9a-f]{32}$/),
    });
    expect(attributesOf(upsertStatement!)["db.query.text"]).toBeUndefined();
    expect(receiver.services).toContain("webinar-trace-test");

    const secrets = {
      secret: merchant.secret,
      signature: upsert.sent["X-Signature"]!,
      nonce: upsert.sent["X-Nonce"]!,
      ticketNonce: ticket.sent["X-Nonce"]!,
      loginTicket: ticket.body.data.loginTicket as string,
      loginUrl: ticket.body.data.loginUrl as string,
      phone,
      body: upsert.raw,
      displayName: "Traced Viewer",
    };
    const everyValue = receiver.spans.flatMap((span) =>
      (span.attributes ?? []).map((attribute) => JSON.stringify(attribute.value)),
    );
    for (const [what, value] of Object.entries(secrets))
      expect({ what, found: everyValue.filter((text) => text.includes(value)) }).toEqual({ what, found: [] });
  });

  it("a refused verification says why on its span: a replayed nonce is OPEN_API_REPLAYED", async () => {
    const merchant = await adminMerchant(server);
    const first = await signedPost(
      server,
      merchant,
      "/api/v1/open/viewers/upsert",
      { externalUserId: "replayed-1" },
      `00-${hex(16)}-${hex(8)}-01`,
    );
    expect(first.status).toBe(200);
    const traceId = hex(16);
    const replay = await fetch(`${server.url}/api/v1/open/viewers/upsert`, {
      method: "POST",
      headers: { ...first.sent, traceparent: `00-${traceId}-${hex(8)}-01` },
      body: first.raw,
    });
    expect(replay.status).toBe(409);
    const spans = await spansOfTrace(receiver, traceId, ["upsertViewer", "verify request"]);
    expect(attributesOf(spans.find((span) => span.name === "verify request")!)).toMatchObject({
      "webinar.verified": false,
      "http.response.status_code": 409,
      "error.type": "OPEN_API_REPLAYED",
    });
  });

  it("a request-log batch is one root span with its statement under it; no statement is a root span", async () => {
    const merchant = await adminMerchant(server);
    const traceparent = `00-${hex(16)}-${hex(8)}-01`;
    const upsert = await signedPost(
      server,
      merchant,
      "/api/v1/open/viewers/upsert",
      { externalUserId: "b-1" },
      traceparent,
    );
    expect(upsert.status).toBe(200);
    const batch = await waitForSpanNamed(receiver, "request log batch");
    expect(batch.parentSpanId ?? "").toBe("");
    const statements = await spansOfTrace(receiver, batch.traceId, ["request log batch", "db WITH"]);
    expectStatementsUnder(statements, "request log batch");
    // A statement built per call carries its text, placeholders and all.
    const written = statements.find((span) => span.name === "db WITH")!;
    expect(attributesOf(written)).toMatchObject({
      "db.query.summary": "INSERT open_api_request_log",
      "db.query.text": expect.stringContaining("json_to_recordset($1::json)"),
    });
    const rootStatements = receiver.spans.filter((span) => span.name.startsWith("db ") && !span.parentSpanId);
    expect(rootStatements.map((span) => span.name)).toEqual([]);
  });

  it("a request its caller did not sample makes no span at all, neither its own nor its statements'", async () => {
    const merchant = await adminMerchant(server);
    const unsampled = hex(16);
    const answer = await signedPost(
      server,
      merchant,
      "/api/v1/open/viewers/upsert",
      { externalUserId: "unsampled-1" },
      `00-${unsampled}-${hex(8)}-00`,
    );
    expect(answer.status).toBe(200);
    // A sampled request sent after it is received: the exports in between are in too.
    const sampled = hex(16);
    await signedPost(
      server,
      merchant,
      "/api/v1/open/viewers/upsert",
      { externalUserId: "sampled-1" },
      `00-${sampled}-${hex(8)}-01`,
    );
    await spansOfTrace(receiver, sampled, ["upsertViewer", "verify request"]);
    expect(receiver.spans.filter((span) => span.traceId === unsampled)).toEqual([]);
  });

  it("admin, watch and health requests are spans named by their operation too, their statements under them", async () => {
    const traceId = hex(16);
    const traceparent = `00-${traceId}-${hex(8)}-01`;
    const answer = await fetch(`${server.url}/readyz`, { headers: { traceparent } });
    expect(answer.status).toBe(200);
    const health = await spansOfTrace(receiver, traceId, ["checkReadiness", "db SELECT"]);
    const readiness = health.find((span) => span.name === "checkReadiness")!;
    expect(readiness.traceId).toBe(traceId);
    expect(health.find((span) => span.name === "db SELECT")?.parentSpanId).toBe(readiness.spanId);

    const created = await server.admin.POST("/admin/v1/merchants", { body: { name: "Traced" } });
    expect(created.response.status).toBe(201);
    const merchantTrace = (await waitForSpanNamed(receiver, "createMerchant")).traceId;
    const admin = await spansOfTrace(receiver, merchantTrace, ["createMerchant", "db INSERT"]);
    expectStatementsUnder(admin, "createMerchant");

    const merchant = await adminMerchant(server);
    const unsampled = `00-${hex(16)}-${hex(8)}-00`;
    const viewer = await signedPost(
      server,
      merchant,
      "/api/v1/open/viewers/upsert",
      { externalUserId: "w-1" },
      unsampled,
    );
    const ticket = await signedPost(
      server,
      merchant,
      "/api/v1/open/viewers/login-tickets",
      { uid: viewer.body.data.viewer.uid, ticketCode: merchant.ticketCode },
      unsampled,
    );
    const watchTrace = hex(16);
    const exchange = await fetch(`${server.url}/w/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${watchTrace}-${hex(8)}-01` },
      body: JSON.stringify({ ticketCode: merchant.ticketCode, loginTicket: ticket.body.data.loginTicket }),
    });
    expect(exchange.status).toBe(200);
    const watch = await spansOfTrace(receiver, watchTrace, ["exchangeLoginTicket", "db COMMIT"]);
    expectStatementsUnder(watch, "exchangeLoginTicket");

    // A console sign-in with an unknown email: refused, after the throttle's count and the lookup.
    const consoleTrace = hex(16);
    const signIn = await fetch(`${server.url}/console/api/session`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: server.url,
        traceparent: `00-${consoleTrace}-${hex(8)}-01`,
      },
      body: JSON.stringify({ email: "nobody@example.com", password: "not the password at all" }),
    });
    expect(signIn.status).toBe(401);
    const consoleSpans = await spansOfTrace(receiver, consoleTrace, ["signIn", "db SELECT"]);
    expectStatementsUnder(consoleSpans, "signIn");
  });
});

/** Every statement span (`db …`) among `spans` is a child of the span named `name`. */
function expectStatementsUnder(spans: OtlpSpan[], name: string): void {
  const parent = spans.find((span) => span.name === name)!;
  const statements = spans.filter((span) => span.name.startsWith("db "));
  expect(statements.map((span) => span.parentSpanId)).toEqual(statements.map(() => parent.spanId));
}

async function waitForSpanNamed(receiver: { spans: OtlpSpan[] }, name: string): Promise<OtlpSpan> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const span = receiver.spans.find((candidate) => candidate.name === name);
    if (span !== undefined) return span;
    if (Date.now() > deadline) throw new Error(`no span ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
