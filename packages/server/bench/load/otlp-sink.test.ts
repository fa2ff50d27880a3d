/** The OTLP sink of `pnpm bench:load --tracing`: a process of its own that counts exports and says when they stop. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OtlpSink, startOtlpSink } from "./otlp-sink";

describe("OTLP sink", () => {
  let sink: OtlpSink;
  beforeAll(async () => {
    sink = await startOtlpSink();
  });
  afterAll(async () => {
    await sink?.close();
  });

  const send = (bytes: number) =>
    fetch(`${sink.url}/v1/traces`, {
      method: "POST",
      headers: { "Content-Type": "application/x-protobuf" },
      body: new Uint8Array(bytes),
    });

  test("accepts every trace export and counts it with its bytes", async () => {
    const answer = await send(1000);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/x-protobuf");
    await send(24);
    expect(await sink.received()).toEqual({ exports: 2, bytes: 1024 });
  });

  test("settled() waits while exports keep arriving, and returns once they stop", async () => {
    const before = (await sink.received()).exports;
    // A server still draining its queue: an export every 100 ms for 0.8 s.
    let sent = 0;
    const sending = (async () => {
      for (; sent < 8; sent += 1) {
        await send(100);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await sink.settled();
    expect(sent).toBe(8);
    await sending;
    expect((await sink.received()).exports).toBe(before + 8);
  });
});
