import { limits } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEED, resolveOptions } from "./options";

const minimal = { baseUrl: "http://127.0.0.1:8080", apiKey: "wk_1", apiSecret: "s", ticketCode: "wbn-1" };

describe("runConformance options", () => {
  it("defaults come from the spec's x-limits; the base URL's path is a prefix of every operation path", () => {
    const resolved = resolveOptions({ ...minimal, baseUrl: "https://gw.example.com/webinar/" });
    expect(resolved).toMatchObject({
      origin: "https://gw.example.com",
      basePath: "/webinar",
      clockSkewSeconds: limits.clockSkewSeconds,
      maxBodyBytes: limits.maxBodyBytes,
      only: [],
    });
  });

  it("the seed is fixed unless given, so two runs send the same bodies and reach the same verdict", () => {
    expect(resolveOptions(minimal).seed).toBe(DEFAULT_SEED);
    expect(resolveOptions(minimal).seed).toBe(resolveOptions(minimal).seed);
    expect(resolveOptions({ ...minimal, seed: 7 }).seed).toBe(7);
  });

  it.each([
    [{ baseUrl: "ftp://example.com" }, /baseUrl must be an http\(s\) URL/],
    [{ baseUrl: "http://example.com/?x=1" }, /baseUrl must have no query or fragment/],
    [{ apiKey: "" }, /apiKey is required/],
    [{ ticketCode: "" }, /ticketCode is required/],
    [{ clockSkewSeconds: 0 }, /clockSkewSeconds must be a positive integer/],
    [{ maxBodyBytes: 1.5 }, /maxBodyBytes must be a positive integer/],
    [{ modelRuns: -1 }, /modelRuns must be a non-negative integer/],
    [{ modelSeconds: 0 }, /modelSeconds must be a positive integer/],
    [{ modelPath: "7:x" }, /modelPath must be the path a failing sequence printed/],
    [{ modelPath: "" }, /modelPath must be the path a failing sequence printed/],
    [{ sessionUrl: "not a url" }, /sessionUrl must be an http\(s\) URL/],
    [{ secondMerchant: { apiKey: "wk_2", secret: "" } }, /secondMerchant.secret is required/],
  ])("%j -> a TypeError naming the option", (change, message) => {
    expect(() => resolveOptions({ ...minimal, ...change })).toThrow(message);
  });
});
