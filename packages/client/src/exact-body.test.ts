import { describe, expect, it } from "vitest";
import { BodyRecordingRequest, exactBodyBytes } from "./exact-body";

const url = "http://127.0.0.1/api/v1/open/viewers/upsert";
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("exactBodyBytes", () => {
  it.each([
    { rule: "§5.2 a recorded string is sent as its UTF-8 bytes", make: () => new BodyRecordingRequest(url, { method: "POST", body: '{"displayName":"张三 🎉"}' }) },
    { rule: "§5.2 recorded bytes are sent as they are", make: () => new BodyRecordingRequest(url, { method: "POST", body: new TextEncoder().encode('{"displayName":"张三 🎉"}') }) },
    { rule: "§5.2 a plain Request is read from a clone", make: () => new Request(url, { method: "POST", body: '{"displayName":"张三 🎉"}' }) },
  ])("$rule, byte for byte what Request itself sends", async ({ make }) => {
    const request = make();
    const bytes = await exactBodyBytes(request);
    expect(decode(bytes)).toBe('{"displayName":"张三 🎉"}');
    expect(bytes).toEqual(new Uint8Array(await request.clone().arrayBuffer()));
  });

  it("a lone surrogate becomes U+FFFD exactly as Request encodes it", async () => {
    const request = new BodyRecordingRequest(url, { method: "POST", body: '{"a":"\uD800"}' });
    expect(await exactBodyBytes(request)).toEqual(new Uint8Array(await request.clone().arrayBuffer()));
  });

  it("recorded bytes are copied, so a later change to the caller's array is not sent", async () => {
    const source = new TextEncoder().encode("{}");
    const bytes = await exactBodyBytes(new BodyRecordingRequest(url, { method: "POST", body: source }));
    source[0] = 0x20;
    expect(decode(bytes)).toBe("{}");
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
