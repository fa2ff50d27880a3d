/**
 * openapi-fetch with the signing middleware is fully typed by the spec's `paths`: request bodies are the spec's
 * request schemas (a wrong body does not compile), and `data` and `error` are its success and error envelopes.
 */
import { describe, expectTypeOf, it } from "vitest";
import createClient, { type Middleware } from "openapi-fetch";
import { createSigningMiddleware, createWebinarClient } from "@org/webinar-client";
import type {
  ErrorEnvelope,
  GetWatchOverviewResponse,
  paths,
  QueryViewerWatchResponse,
  UpsertViewerResponse,
} from "@org/webinar-types";

const api = createClient<paths>({ baseUrl: "https://api.example.com" });
api.use(createSigningMiddleware({ apiKey: "wk_live_x", secret: "s3cret" }));

describe("createSigningMiddleware with openapi-fetch", () => {
  it("is a standard openapi-fetch Middleware", () => {
    expectTypeOf(createSigningMiddleware).returns.toEqualTypeOf<Middleware>();
    expectTypeOf(createSigningMiddleware).parameter(0).toHaveProperty("apiKey").toEqualTypeOf<string>();
  });

  it("upsertViewer: the body is UpsertViewerRequest, data the success envelope, error the error envelope", async () => {
    const { data, error } = await api.POST("/api/v1/open/viewers/upsert", {
      body: { externalUserId: "crm-1", displayName: null },
    });
    expectTypeOf(data).toEqualTypeOf<UpsertViewerResponse | undefined>();
    expectTypeOf(error).toEqualTypeOf<ErrorEnvelope | undefined>();
    if (data !== undefined) expectTypeOf(data.data.viewer.uid).toEqualTypeOf<number>();
  });

  it("upsertViewer: a body the spec rejects does not compile", () => {
    // @ts-expect-error externalUserId is required
    void api.POST("/api/v1/open/viewers/upsert", { body: { phone: "13800138000" } });
    // @ts-expect-error phone null gives 400 REQUEST_INVALID: a bound phone cannot be cleared
    void api.POST("/api/v1/open/viewers/upsert", { body: { externalUserId: "crm-1", phone: null } });
    // @ts-expect-error every operation needs its body
    void api.POST("/api/v1/open/viewers/upsert", {});
  });

  it("getWatchOverview and queryViewerWatch: explicit enums and required fields", async () => {
    const overview = await api.POST("/api/v1/open/watch-data/overview", {
      body: { ticketCode: "WBN8K2QX", playbackMode: "LIVE" },
    });
    expectTypeOf(overview.data).toEqualTypeOf<GetWatchOverviewResponse | undefined>();
    // @ts-expect-error playbackMode must be ALL, LIVE or REPLAY
    void api.POST("/api/v1/open/watch-data/overview", { body: { ticketCode: "WBN8K2QX", playbackMode: "live" } });
    const page = await api.POST("/api/v1/open/watch-data/viewers/query", {
      body: { ticketCode: "WBN8K2QX", playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 50 },
    });
    expectTypeOf(page.data).toEqualTypeOf<QueryViewerWatchResponse | undefined>();
    void api.POST("/api/v1/open/watch-data/viewers/query", {
      // @ts-expect-error sort and pageSize have no defaults and must be sent
      body: { ticketCode: "WBN8K2QX", playbackMode: "REPLAY" },
    });
  });

  it("only the spec's paths exist, and only as POST", () => {
    // @ts-expect-error no such path
    void api.POST("/api/v1/open/viewers/delete", { body: {} });
    // @ts-expect-error the operations are POST only
    void api.GET("/api/v1/open/viewers/upsert");
  });

  it("the typed client's raw is the same kind of client", () => {
    const client = createWebinarClient({ baseUrl: "https://api.example.com", apiKey: "wk_live_x", secret: "s3cret" });
    expectTypeOf(client.raw).toEqualTypeOf(api);
  });
});
