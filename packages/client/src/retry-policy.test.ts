import { errorCatalog, type ErrorCode } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import {
  backoffDelayMs,
  defaultRetryPolicy,
  isRetryableAnswer,
  resolveRetryPolicy,
  retryClassOf,
} from "./retry-policy";

describe("isRetryableAnswer", () => {
  const codes = Object.keys(errorCatalog) as ErrorCode[];
  it.each(codes.map((code) => ({ code, ...errorCatalog[code] })))(
    "x-retry of $code ($status, $retry) decides: only backoff is retried",
    ({ code, status, retry }) => {
      expect(isRetryableAnswer(status, code)).toBe(retry === "backoff");
    },
  );

  it.each([
    {
      rule: "Errors and retries: OPEN_API_REPLAYED is never retried",
      status: 409,
      code: "OPEN_API_REPLAYED",
      expected: false,
    },
    {
      rule: "Errors and retries: VIEWER_IDENTITY_CONFLICT is never retried",
      status: 409,
      code: "VIEWER_IDENTITY_CONFLICT",
      expected: false,
    },
    {
      rule: "Errors and retries: VIEWER_UID_EXHAUSTED is never retried",
      status: 409,
      code: "VIEWER_UID_EXHAUSTED",
      expected: false,
    },
    {
      rule: "queryViewerWatch: WATCH_DATA_NOT_FINAL is a poll, not a generic retry",
      status: 409,
      code: "WATCH_DATA_NOT_FINAL",
      expected: false,
    },
    { rule: "a gateway's 413 page without a code is not retried", status: 413, code: undefined, expected: false },
    { rule: "a 429 without a code is not retried (every 4xx is final)", status: 429, code: undefined, expected: false },
    { rule: "a gateway's 502 page without a code is retried", status: 502, code: undefined, expected: true },
    { rule: "a gateway's 503 page without a code is retried", status: 503, code: undefined, expected: true },
    { rule: "a gateway's 504 page without a code is retried", status: 504, code: undefined, expected: true },
    { rule: "501 without a code is not retried", status: 501, code: undefined, expected: false },
    { rule: "an unknown code on a 503 falls back to the status", status: 503, code: "FUTURE_CODE", expected: true },
    { rule: "an unknown code on a 400 is never retried", status: 400, code: "FUTURE_CODE", expected: false },
    {
      rule: "a backoff code on a 4xx status is still not retried",
      status: 400,
      code: "INTERNAL_ERROR",
      expected: false,
    },
  ])("$rule", ({ status, code, expected }) => {
    expect(isRetryableAnswer(status, code)).toBe(expected);
  });

  it("an inherited property name is not a code", () => {
    expect(retryClassOf("toString")).toBeUndefined();
    expect(retryClassOf("__proto__")).toBeUndefined();
  });
});

describe("backoffDelayMs (full jitter)", () => {
  const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
  it.each([
    { rule: "draw 0 gives no delay", retryIndex: 0, draw: 0, expected: 0 },
    { rule: "first retry: up to baseDelayMs", retryIndex: 0, draw: 0.5, expected: 50 },
    { rule: "doubles per retry", retryIndex: 2, draw: 0.5, expected: 200 },
    { rule: "capped by maxDelayMs", retryIndex: 10, draw: 0.5, expected: 500 },
    { rule: "never reaches the ceiling", retryIndex: 0, draw: 0.999999, expected: 99 },
  ])("$rule", ({ retryIndex, draw, expected }) => {
    expect(backoffDelayMs(retryIndex, policy, () => draw)).toBe(expected);
  });
});

describe("resolveRetryPolicy", () => {
  it.each([
    { rule: "undefined keeps the defaults", options: undefined, expected: defaultRetryPolicy },
    {
      rule: "false allows a single attempt",
      options: false as const,
      expected: { ...defaultRetryPolicy, maxAttempts: 1 },
    },
    {
      rule: "fields override one by one",
      options: { maxAttempts: 5 },
      expected: { ...defaultRetryPolicy, maxAttempts: 5 },
    },
  ])("$rule", ({ options, expected }) => {
    expect(resolveRetryPolicy(options)).toEqual(expected);
  });

  it.each([
    { maxAttempts: 0 },
    { maxAttempts: 1.5 },
    { baseDelayMs: -1 },
    { deadlineMs: 0 },
    { maxDelayMs: Number.NaN },
  ])("rejects %o with a RangeError", (options) => {
    expect(() => resolveRetryPolicy(options)).toThrow(RangeError);
  });
});
