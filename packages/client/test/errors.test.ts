/**
 * What a failure becomes: one WebinarApiError for every answer in the API's error envelope (`ErrorEnvelope`), a
 * WebinarResponseError for anything else the server or a gateway answers, a WebinarConnectionError for a refused
 * redirect ("Signing requests").
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  isWebinarApiError,
  WebinarApiError,
  WebinarConnectionError,
  WebinarError,
  WebinarResponseError,
} from "@org/webinar-client";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { clientFor, rejectionOf, startServer } from "./support/fixtures";
import { apiError, TEST_SECRET } from "./support/verifying-server";

const overviewBody = { ticketCode: TICKET_CODE, playbackMode: "LIVE" } as const;

describe("WebinarApiError", () => {
  it("ErrorEnvelope: carries status, code, message, requestId, details and headers of the envelope", async () => {
    const server = await startServer();
    server.script("upsertViewer", {
      status: 400,
      json: {
        requestId: "req_sensitive_1",
        error: { code: "CONTENT_SENSITIVE", message: "display name rejected", details: { matches: ["badword"] } },
      },
      headers: { "X-Trace": "t-1" },
    });
    const { client } = clientFor(server);
    const error = await rejectionOf(client.upsertViewer({ externalUserId: "crm-1", displayName: "badword" }));
    expect(error).toBeInstanceOf(WebinarApiError);
    expect(error).toBeInstanceOf(WebinarError);
    expect(error).toMatchObject({
      name: "WebinarApiError",
      operationId: "upsertViewer",
      status: 400,
      code: "CONTENT_SENSITIVE",
      message: "display name rejected",
      requestId: "req_sensitive_1",
      details: { matches: ["badword"] },
      attempts: 1,
    });
    expect((error as WebinarApiError).headers.get("x-trace")).toBe("t-1");
    expect(Object.keys(error as object)).not.toContain("headers");
  });

  it("isWebinarApiError narrows to one operation's codes", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    const error = await rejectionOf(client.issueLoginTicket({ uid: 99999, ticketCode: TICKET_CODE }));
    expect(isWebinarApiError(error, "upsertViewer")).toBe(false);
    if (!isWebinarApiError(error, "issueLoginTicket")) throw new Error("expected an issueLoginTicket error");
    // The type of error.code is the union of issueLoginTicket's x-error-codes; this assignment type-checks only then.
    const code:
      | "VIEWER_NOT_FOUND"
      | "WEBINAR_NOT_FOUND"
      | "REQUEST_INVALID"
      | "OPEN_API_UNAUTHORIZED"
      | "ORIGIN_FORBIDDEN"
      | "TENANT_SUSPENDED"
      | "OPEN_API_REPLAYED"
      | "INTERNAL_ERROR"
      | "AUTH_DEPENDENCY_UNAVAILABLE"
      | "PUBLIC_METADATA_UNAVAILABLE"
      | "VIEWER_DOMAIN_UNAVAILABLE" = error.code;
    expect(code).toBe("VIEWER_NOT_FOUND");
    expect(error.status).toBe(404);
  });

  it("a code the spec does not list yet is passed through, not retried", async () => {
    const server = await startServer();
    server.script("getWatchOverview", {
      status: 422,
      json: { requestId: "req_future", error: { code: "FUTURE_CODE", message: "newer server" } },
    });
    const { client } = clientFor(server);
    await expect(client.getWatchOverview(overviewBody)).rejects.toMatchObject({
      name: "WebinarApiError",
      code: "FUTURE_CODE",
      status: 422,
    });
    expect(server.received).toHaveLength(1);
  });

  it("neither the error nor its inspection carries the secret or the signature", async () => {
    const server = await startServer();
    server.script("getWatchOverview", apiError(401, "OPEN_API_UNAUTHORIZED"));
    const { client } = clientFor(server);
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    const shown = `${inspect(error, { depth: 5, showHidden: true })} ${JSON.stringify(error)}`;
    expect(shown).not.toContain(TEST_SECRET);
    expect(shown).not.toContain(server.received[0]!.header("x-signature"));
  });
});

describe("answers that are not the API's JSON become WebinarResponseError", () => {
  it.each([
    {
      rule: "Errors and retries: a gateway's HTML 413 page",
      answer: { status: 413, text: "<html><body><h1>413 Request Entity Too Large</h1></body></html>" },
      problem: "not JSON",
    },
    {
      rule: "success envelope: an HTML page with status 200 is not data",
      answer: { status: 200, text: "<html>maintenance</html>" },
      problem: "not JSON",
    },
    { rule: "an empty 502", answer: { status: 502, text: "" }, problem: "empty" },
    {
      rule: "a truncated success body",
      answer: { status: 200, text: '{"requestId":"req_1","data":{"tick' },
      problem: "not JSON",
    },
    {
      rule: "success envelope: a success without data",
      answer: { status: 200, json: { requestId: "req_1" } },
      problem: "no data",
    },
    {
      rule: "ErrorEnvelope: an error envelope without a code",
      answer: { status: 400, json: { requestId: "req_1", error: { message: "?" } } },
      problem: "error.code",
    },
    {
      rule: "JSON of a gateway's own shape",
      answer: { status: 429, json: { message: "Too Many Requests" } },
      problem: "requestId",
    },
  ])("$rule", async ({ answer, problem }) => {
    const server = await startServer();
    server.scriptGateway("*", answer, answer, answer);
    const { client } = clientFor(server);
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    expect(error).toBeInstanceOf(WebinarResponseError);
    expect(error).toMatchObject({ status: answer.status });
    expect((error as Error).message).toContain(problem);
    expect((error as WebinarResponseError).bodySnippet).toBe(
      (answer.text ?? JSON.stringify(answer.json)).slice(0, 512),
    );
  });

  it("a long page is cut to 512 characters in bodySnippet", async () => {
    const server = await startServer();
    server.scriptGateway("*", { status: 413, text: `<html>${"x".repeat(5000)}</html>` });
    const { client } = clientFor(server);
    const error = (await rejectionOf(client.getWatchOverview(overviewBody))) as WebinarResponseError;
    expect(error.bodySnippet).toHaveLength(512);
  });
});

describe("Signing requests: redirects are refused", () => {
  it.each([301, 302, 303, 307, 308] as const)("a %i is neither followed nor retried", async (status) => {
    const server = await startServer({ dataset: createDataset(1) });
    server.scriptGateway("*", { redirect: "/api/v1/open/watch-data/overview", status });
    const { client, waits } = clientFor(server);
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    expect(error).toBeInstanceOf(WebinarConnectionError);
    expect(error).toMatchObject({ reason: "redirect", attempts: 1 });
    expect(server.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("a fetch that follows nothing and hands back the 3xx is refused the same way", async () => {
    const server = await startServer();
    const { client } = clientFor(server, {
      fetch: async () => new Response(null, { status: 302, headers: { Location: "https://elsewhere.example" } }),
    });
    await expect(client.getWatchOverview(overviewBody)).rejects.toMatchObject({
      name: "WebinarConnectionError",
      reason: "redirect",
    });
  });

  it("client.raw refuses a redirect too: the signing middleware sends every request with redirect: error", async () => {
    const server = await startServer();
    server.scriptGateway("*", { redirect: "/elsewhere", status: 307 });
    const { client } = clientFor(server);
    // client.raw is plain openapi-fetch: the fetch's own failure, undici's "fetch failed" caused by the redirect.
    const failure = await rejectionOf(client.raw.POST("/api/v1/open/watch-data/overview", { body: overviewBody }));
    expect(failure).toBeInstanceOf(TypeError);
    expect(String((failure as { cause?: unknown }).cause)).toMatch(/redirect/);
    expect(server.received).toHaveLength(1);
  });
});
