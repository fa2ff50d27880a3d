import { describe, expect, it } from "vitest";
import { createCorsPolicy, SIGNED_REQUEST_HEADERS } from "./cors";

describe("createCorsPolicy (Signing requests)", () => {
  it.each([
    "https://docs.example.com/",
    "https://docs.example.com/path",
    "docs.example.com",
    "*",
    "null",
    "HTTPS://DOCS.EXAMPLE.COM",
    "",
  ])("rejects %j at creation: allowed origins are exact serialized origins", (origin) => {
    expect(() => createCorsPolicy([origin])).toThrow(TypeError);
  });

  const cors = createCorsPolicy(["https://docs.example.com", "http://127.0.0.1:5173"]);

  it.each([
    ["https://docs.example.com", true],
    ["http://127.0.0.1:5173", true],
    ["http://docs.example.com", false],
    ["https://docs.example.com:444", false],
    ["https://evil.docs.example.com", false],
    ["null", false],
  ])("allows(%s) is %s", (origin, allowed) => {
    expect(cors.allows(origin)).toBe(allowed);
  });

  it("Signing requests: a preflight answer allows POST and exactly the five signed-request headers, no credentials", () => {
    const headers = cors.preflightHeaders("https://docs.example.com");
    expect(headers).toMatchObject({
      "Access-Control-Allow-Origin": "https://docs.example.com",
      "Access-Control-Allow-Methods": "POST",
      "Access-Control-Allow-Headers": "Content-Type, X-API-Key, X-Timestamp, X-Nonce, X-Signature",
    });
    expect(headers).not.toHaveProperty("Access-Control-Allow-Credentials");
    expect(SIGNED_REQUEST_HEADERS).toHaveLength(5);
  });

  it("answers expose only the request id and vary by Origin", () => {
    expect(cors.responseHeaders("https://docs.example.com")).toEqual({
      "Access-Control-Allow-Origin": "https://docs.example.com",
      "Access-Control-Expose-Headers": "X-Request-Id",
      Vary: "Origin",
    });
  });
});
