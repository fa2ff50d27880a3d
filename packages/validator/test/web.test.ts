/**
 * The verifier with a Web `Request`, as a Worker, Deno.serve, Bun.serve or a Next.js route handler uses it, and the
 * main entry's `verifyWebRequest` / `rejectionResponse` around it.
 */
import { operations } from "@org/webinar-types";
import { describe, expect, it, vi } from "vitest";
import { createRequestVerifier, rejectionResponse, verifyWebRequest } from "../src/index";
import { ALLOWED_ORIGIN, createTestOptions, signedRequest } from "./support/fixture";
import { toWebRequest } from "./support/web-request";

const UPSERT = operations.upsertViewer.path;
const upsertBody = '{"externalUserId":" crm-000123 ","phone":""}';

describe("verifier.verify(request: Request)", () => {
  it("Signing requests: a signed request -> the verified request with its raw bytes and the headers for the answer", async () => {
    const result = await createRequestVerifier(createTestOptions()).verify(
      toWebRequest(signedRequest({ path: UPSERT, body: upsertBody })),
    );
    expect(result).toMatchObject({ ok: true, operationId: "upsertViewer", body: { externalUserId: "crm-000123" } });
    if (!result.ok) return;
    expect(new TextDecoder().decode(result.rawBody)).toBe(upsertBody);
    expect(result.headers["X-Request-Id"]).toBe(result.requestId);
  });

  it("Conventions: an empty query string is still seen (request.url keeps the '?') -> 401", async () => {
    const result = await createRequestVerifier(createTestOptions()).verify(
      toWebRequest(signedRequest({ path: `${UPSERT}?`, body: upsertBody })),
    );
    expect(result).toMatchObject({ ok: false, status: 401 });
  });

  it("the raw target, when given, is what is matched and signed", async () => {
    // The URL resolves `/x/../`; the raw target shows the client sent (and signed) another path.
    const wire = signedRequest({ path: UPSERT.replace("/viewers", "/x/../viewers"), body: upsertBody });
    const verifier = createRequestVerifier(createTestOptions());
    expect(await verifier.verify(toWebRequest(wire), { rawPath: wire.path })).toMatchObject({
      ok: false,
      status: 401,
      body: { error: { message: expect.stringContaining("not canonical") } },
    });
  });

  it("a request id given to verify is the one of every answer: verified or rejected", async () => {
    const verifier = createRequestVerifier(createTestOptions());
    const verified = await verifier.verify(toWebRequest(signedRequest({ path: UPSERT, body: upsertBody })), {
      requestId: "req_given_by_the_server",
    });
    expect(verified).toMatchObject({ ok: true, requestId: "req_given_by_the_server" });
    const unsigned = new Request(`http://api.example${UPSERT}`, { method: "POST", body: upsertBody });
    expect(await verifier.verify(unsigned, { requestId: "req_given_by_the_server" })).toMatchObject({
      ok: false,
      status: 400,
      headers: { "X-Request-Id": "req_given_by_the_server" },
      body: { requestId: "req_given_by_the_server" },
    });
  });

  it("a path match given to verify is used as given (the adapters classify the path once)", async () => {
    const verifier = createRequestVerifier(createTestOptions());
    const wire = toWebRequest(signedRequest({ path: UPSERT, body: upsertBody }));
    expect(await verifier.verify(wire, { pathMatch: verifier.matchPath("/api/v1/open/viewers") })).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it("Limits: a streamed body past the limit -> 400 REQUEST_INVALID, reading stopped early", async () => {
    const wire = signedRequest({ path: UPSERT, body: "{}" });
    const chunk = new TextEncoder().encode(" ".repeat(4096));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 100) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request(`http://127.0.0.1${UPSERT}`, {
      method: "POST",
      headers: wire.headers,
      body,
      duplex: "half",
    } as RequestInit);
    const response = await verifyWebRequest(request, createRequestVerifier(createTestOptions()));
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).status).toBe(400);
    expect((response as Response).headers.get("X-Request-Id")).toMatch(/^req_/);
    expect(await (response as Response).json()).toMatchObject({ error: { code: "REQUEST_INVALID" } });
    expect(sent).toBeLessThan(100);
  });

  it("a body stream that fails -> 500 INTERNAL_ERROR without the failure's text, told to onError", async () => {
    const onError = vi.fn();
    const wire = signedRequest({ path: UPSERT, body: upsertBody });
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.error(new Error("socket hang up at 10.0.0.7")),
    });
    const request = new Request(`http://127.0.0.1${UPSERT}`, {
      method: "POST",
      headers: wire.headers,
      body,
      duplex: "half",
    } as RequestInit);
    const result = await createRequestVerifier(createTestOptions({ onError })).verify(request);
    expect(result).toMatchObject({
      ok: false,
      status: 500,
      body: { error: { code: "INTERNAL_ERROR", message: "unexpected server error" } },
    });
    expect(onError).toHaveBeenCalledWith(expect.any(Error), "adapter");
  });

  it("ORIGIN_FORBIDDEN: a preflight from an allowed origin -> 204 with no-store and nosniff, no body", async () => {
    const request = new Request(`http://127.0.0.1${UPSERT}`, {
      method: "OPTIONS",
      headers: { Origin: ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST" },
    });
    const response = (await verifyWebRequest(request, createRequestVerifier(createTestOptions()))) as Response;
    expect(response.status).toBe(204);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "access-control-allow-origin": ALLOWED_ORIGIN,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    expect(await response.text()).toBe("");
  });

  it("matchPath: an operation, a non-canonical form of one, or no operation", () => {
    const verifier = createRequestVerifier(createTestOptions());
    expect(verifier.matchPath(UPSERT)).toEqual({ kind: "operation", operationId: "upsertViewer" });
    expect(verifier.matchPath(`${UPSERT}/`)).toEqual({ kind: "nonCanonical", operationId: "upsertViewer" });
    expect(verifier.matchPath("/api/v1/open/viewers")).toEqual({ kind: "unknown" });
  });

  it("handlesPath: the four operation paths and their non-canonical variants, nothing else", () => {
    const verifier = createRequestVerifier(createTestOptions());
    expect(Object.values(operations).every((operation) => verifier.handlesPath(operation.path))).toBe(true);
    expect(
      [`${UPSERT}/`, UPSERT.toUpperCase(), `${UPSERT}?x=1`, `/${UPSERT}`].every((path) => verifier.handlesPath(path)),
    ).toBe(true);
    expect(
      ["/", "/hello", "/api/v1/open/viewers", "/api/v2/open/viewers/upsert"].some((path) => verifier.handlesPath(path)),
    ).toBe(false);
  });

  it("rejectionResponse writes the rejection's status, headers and envelope", async () => {
    const result = await createRequestVerifier(createTestOptions()).verify(
      toWebRequest({ method: "GET", path: UPSERT, headers: [], body: new Uint8Array() }),
    );
    if (result.ok) throw new Error("a GET was verified");
    const response = rejectionResponse(result);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toEqual(result.body);
  });
});
