/** When the standard OTEL_* variables ask for traces; everything else leaves tracing off (no SDK, no spans). */
import { context, createContextKey, ROOT_CONTEXT } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { startTracing, tracingRequested } from "./start-tracing";

describe("tracingRequested", () => {
  it.each([
    ["nothing set: off", {}, false],
    ["an OTLP endpoint: on", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, true],
    ["a traces endpoint: on", { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" }, true],
    ["OTEL_TRACES_EXPORTER=otlp: on (default endpoint)", { OTEL_TRACES_EXPORTER: "otlp" }, true],
    ["OTEL_TRACES_EXPORTER=console: on", { OTEL_TRACES_EXPORTER: "console" }, true],
    [
      "OTEL_TRACES_EXPORTER=none beats an endpoint",
      { OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318" },
      false,
    ],
    [
      "OTEL_SDK_DISABLED=true beats everything",
      { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318" },
      false,
    ],
    [
      "a protocol or service name alone: off",
      { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "x" },
      false,
    ],
    ["blank values: off", { OTEL_EXPORTER_OTLP_ENDPOINT: " ", OTEL_TRACES_EXPORTER: "" }, false],
  ])("%s", (_name, env, expected) => {
    expect(tracingRequested(env)).toBe(expected);
  });

  it("startTracing without a configured exporter starts nothing", async () => {
    expect(await startTracing({ OTEL_SERVICE_NAME: "x" })).toBeUndefined();
  });

  it("a started SDK keeps no asynchronous context: spans are passed, so no promise of the process is hooked", async () => {
    const tracing = await startTracing({ OTEL_TRACES_EXPORTER: "console", OTEL_TRACES_SAMPLER: "always_off" });
    try {
      const key = createContextKey("entered");
      const seen = await context.with(ROOT_CONTEXT.setValue(key, "yes"), async () => {
        const before = context.active();
        await Promise.resolve();
        return [before, context.active()];
      });
      expect(seen).toEqual([ROOT_CONTEXT, ROOT_CONTEXT]);
    } finally {
      await tracing?.shutdown();
    }
  });
});
