/**
 * Every positive vector of spec/test-vectors/signing.json (expected values from openssl) reproduced through the
 * client: the vector's clock and nonce are injected, the vector's exact body bytes are sent, and the X-Signature
 * the verifying server received must be the vector's. That both hash backends reproduce every vector is the
 * signing package's test; here the client's serialization, path and headers are what is checked.
 */
import { describe, expect, it } from "vitest";
import { createWebinarClient } from "@org/webinar-client";
import type { paths } from "@org/webinar-types";
import vectors from "@org/webinar-spec/test-vectors/signing.json" with { type: "json" };
import { startServer } from "./support/fixtures";

type Vector = (typeof vectors.positive)[number];
type Path = keyof paths;

const cases = vectors.positive.map((vector) => ({ vector, name: vector.name }));

async function sendVector(vector: Vector, useMethod: boolean) {
  const vectorTime = Number(vector.timestamp) * 1000;
  const server = await startServer({ credentials: { [vector.apiKey]: vector.secret }, now: () => vectorTime });
  const client = createWebinarClient({
    baseUrl: server.baseUrl,
    apiKey: vector.apiKey,
    secret: vector.secret,
    clock: () => vectorTime + 999, // within the vector's second: the timestamp is truncated, not rounded
    nonceSource: () => vector.nonce,
    retry: false,
  });
  if (useMethod) {
    // The body the client serializes itself is byte-identical to the vector's.
    await client.upsertViewer(JSON.parse(vector.body) as never).catch(() => undefined);
  } else {
    // Any other bytes (pretty-printed, \u escapes, {}) go through client.raw with a serializer returning them verbatim.
    await client.raw.POST(vector.path as Path, { body: {} as never, bodySerializer: () => vector.body });
  }
  expect(server.received).toHaveLength(1);
  return server.received[0]!;
}

describe("Signing requests: signing vectors through the client", () => {
  it.each(cases)("$name", async ({ vector }) => {
    const roundTrips =
      JSON.stringify(JSON.parse(vector.body)) === vector.body && vector.path === "/api/v1/open/viewers/upsert";
    const request = await sendVector(vector, roundTrips);
    expect(request.url).toBe(vector.path);
    expect(request.body.equals(Buffer.from(vector.body, "utf8"))).toBe(true);
    expect(request.header("x-api-key")).toBe(vector.apiKey);
    expect(request.header("x-timestamp")).toBe(vector.timestamp);
    expect(request.header("x-nonce")).toBe(vector.nonce);
    expect(request.header("x-signature")).toBe(vector.signature);
    expect(request.header("content-type")).toBe("application/json");
    expect(request.verdict).toBe("ok");
  });

  it("every operation has at least one vector sent through a typed method or raw", () => {
    expect(new Set(vectors.positive.map((vector) => vector.path)).size).toBe(4);
  });
});
