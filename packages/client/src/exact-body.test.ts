import { bodyHash, createSigner } from "@org/webinar-signing";
import { describe, expect, it } from "vitest";
import { BodyRecordingRequest, exactBody } from "./exact-body";

const url = "http://127.0.0.1/api/v1/open/viewers/upsert";
const decode = (body: string | Uint8Array) => (typeof body === "string" ? body : new TextDecoder().decode(body));
const sentBytes = async (request: Request) => new Uint8Array(await request.clone().arrayBuffer());

/** What matters for signing: both backends hash the body to what the hash of the bytes Request sends is. */
async function expectHashOfSentBytes(request: Request, body: string | Uint8Array): Promise<void> {
  const expected = await bodyHash(await sentBytes(request));
  expect(await bodyHash(body)).toBe(expected);
  expect(await createSigner("s", "web").hashBody(body)).toBe(expected);
  expect(createSigner("s", "node").sync!.hashBody(body)).toBe(expected);
}

describe("exactBody", () => {
  it.each([
    { rule: "§5.2 a recorded string is sent as its UTF-8 bytes", make: () => new BodyRecordingRequest(url, { method: "POST", body: '{"displayName":"张三 🎉"}' }) },
    { rule: "§5.2 recorded bytes are sent as they are", make: () => new BodyRecordingRequest(url, { method: "POST", body: new TextEncoder().encode('{"displayName":"张三 🎉"}') }) },
    { rule: "§5.2 a plain Request is read from a clone", make: () => new Request(url, { method: "POST", body: '{"displayName":"张三 🎉"}' }) },
  ])("$rule, byte for byte what Request itself sends", async ({ make }) => {
    const request = make();
    const body = await exactBody(request);
    expect(decode(body)).toBe('{"displayName":"张三 🎉"}');
    expect(new TextEncoder().encode(decode(body))).toEqual(await sentBytes(request));
    await expectHashOfSentBytes(request, body);
  });

  it("a recorded string stays a string: fetch and the signer both encode it", async () => {
    const request = new BodyRecordingRequest(url, { method: "POST", body: "{}" });
    expect(await exactBody(request)).toBe("{}");
  });

  it("a lone surrogate is hashed as U+FFFD, exactly as Request encodes it", async () => {
    const request = new BodyRecordingRequest(url, { method: "POST", body: '{"a":"\uD800"}' });
    await expectHashOfSentBytes(request, await exactBody(request));
  });

  it("recorded bytes are copied, so a later change to the caller's array is not sent", async () => {
    const source = new TextEncoder().encode("{}");
    const body = await exactBody(new BodyRecordingRequest(url, { method: "POST", body: source }));
    source[0] = 0x20;
    expect(decode(body)).toBe("{}");
  });
});

describe("BodyRecordingRequest", () => {
  it("any Request is an instance, so openapi-fetch accepts a middleware's plain Request", () => {
    expect(new Request(url)).toBeInstanceOf(BodyRecordingRequest);
    expect({}).not.toBeInstanceOf(BodyRecordingRequest);
  });

  it.each([
    { rule: "a URL string without a signal follows nothing", make: () => new BodyRecordingRequest(url, { method: "POST" }), mayAbort: false },
    { rule: "a URL object without a signal follows nothing", make: () => new BodyRecordingRequest(new URL(url), { method: "POST" }), mayAbort: false },
    { rule: "an init signal is followed", make: () => new BodyRecordingRequest(url, { method: "POST", signal: new AbortController().signal }), mayAbort: true },
    { rule: "a request as input passes its signal on", make: () => new BodyRecordingRequest(new Request(url, { signal: new AbortController().signal })), mayAbort: true },
    { rule: "a plain Request is assumed abortable", make: () => new Request(url), mayAbort: true },
  ])("signalMayAbort: $rule", ({ make, mayAbort }) => {
    expect(BodyRecordingRequest.signalMayAbort(make())).toBe(mayAbort);
  });

  it("a followed signal really aborts the request's own signal", () => {
    const controller = new AbortController();
    const request = new BodyRecordingRequest(url, { method: "POST", signal: controller.signal });
    controller.abort("stop");
    expect(request.signal.aborted).toBe(true);
  });
});
