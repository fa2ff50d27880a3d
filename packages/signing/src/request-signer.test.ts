import { describe, expect, it } from "vitest";
import { backends } from "../test/backends";
import { isValidNonce } from "./nonce";
import { createRequestSigner } from "./request-signer";
import { signRequest } from "./sign-request";
import { verify } from "./verify";

const base = {
  apiKey: "wk_live_7Qm2x9Lp4Rt8Vb1N",
  secret: "Vq7#tR2m!Lp9@xZ4&nB6^wK1",
  path: "/api/v1/open/viewers/upsert",
  body: '{"externalUserId":"crm-10086"}',
};

describe("createRequestSigner and signRequest", () => {
  it.each([
    {
      rule: "Signing requests: exactly the five headers",
      run: async () =>
        expect(Object.keys((await signRequest(base)).headers).sort()).toEqual([
          "Content-Type",
          "X-API-Key",
          "X-Nonce",
          "X-Signature",
          "X-Timestamp",
        ]),
    },
    {
      rule: "Signing requests: a generated timestamp is the current Unix time in seconds",
      run: async () => {
        const before = Math.floor(Date.now() / 1000);
        const timestamp = Number((await signRequest(base)).headers["X-Timestamp"]);
        expect(timestamp).toBeGreaterThanOrEqual(before);
        expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
      },
    },
    {
      rule: "Signing requests: a generated nonce is 32 lowercase hex characters and valid",
      run: async () => {
        const nonce = (await signRequest(base)).headers["X-Nonce"];
        expect(nonce).toMatch(/^[0-9a-f]{32}$/);
        expect(isValidNonce(nonce)).toBe(true);
      },
    },
    {
      rule: "Signing requests: every call takes a fresh nonce and signature (retries re-sign)",
      run: async () => {
        const [first, second] = await Promise.all([signRequest(base), signRequest(base)]);
        expect(first.headers["X-Nonce"]).not.toBe(second.headers["X-Nonce"]);
        expect(first.headers["X-Signature"]).not.toBe(second.headers["X-Signature"]);
      },
    },
    {
      rule: "Signing requests: the result verifies against its own canonical string",
      run: async () => {
        const signed = await signRequest(base);
        expect(await verify(base.secret, signed.canonical, signed.headers["X-Signature"])).toBe(true);
      },
    },
    {
      rule: "Signing requests: a base-URL path prefix is signed as part of the path",
      run: async () => {
        const signed = await signRequest({ ...base, path: `/webinar${base.path}` });
        expect(signed.canonical.split("\n")[2]).toBe("/webinar/api/v1/open/viewers/upsert");
      },
    },
  ])("$rule", async ({ run }) => run());

  it.each([
    {
      rule: "Signing requests: full URL instead of the path",
      change: { path: `https://api.example.com${base.path}` },
      error: TypeError,
    },
    { rule: "Signing requests: a relative path", change: { path: "api/v1/open/viewers/upsert" }, error: TypeError },
    { rule: "Signing requests: trailing slash", change: { path: `${base.path}/` }, error: TypeError },
    { rule: "Signing requests: no query string", change: { path: `${base.path}?debug=1` }, error: TypeError },
    { rule: "Signing requests: no fragment", change: { path: `${base.path}#x` }, error: TypeError },
    { rule: "Signing requests: millisecond timestamp", change: { timestamp: "1767225600000" }, error: RangeError },
    {
      rule: "Signing requests: non-decimal timestamp",
      change: { timestamp: "2026-01-01T00:00:00Z" },
      error: RangeError,
    },
    { rule: "Signing requests: nonce shorter than 16 characters", change: { nonce: "abc123" }, error: RangeError },
    {
      rule: "Signing requests: nonce with characters outside A-Z a-z 0-9 _ -",
      change: { nonce: "abcdefghijklmnop+/" },
      error: RangeError,
    },
    { rule: "Signing requests: empty secret", change: { secret: "" }, error: TypeError },
    { rule: "Signing requests: empty API key", change: { apiKey: "" }, error: TypeError },
    { rule: "Signing requests: a line break in the API key", change: { apiKey: "wk_live_x\n" }, error: TypeError },
  ])("rejects before signing: $rule", async ({ change, error }) => {
    await expect(signRequest({ ...base, ...change })).rejects.toThrow(error);
  });

  it.each(backends)("%s: one signer signs many requests, each with its own nonce and timestamp", async (backend) => {
    const signer = createRequestSigner({ apiKey: base.apiKey, secret: base.secret, crypto: backend });
    expect(signer.backend).toBe(backend);
    const [first, second] = await Promise.all([signer.sign(base), signer.sign(base)]);
    expect(first.headers["X-Nonce"]).not.toBe(second.headers["X-Nonce"]);
    for (const signed of [first, second])
      expect(await verify(base.secret, signed.canonical, signed.headers["X-Signature"])).toBe(true);
  });

  it("a nonceSource supplies the nonces; a bad one fails the request naming the option", async () => {
    const signer = createRequestSigner({ ...base, nonceSource: () => "from-the-source-0001" });
    expect((await signer.sign(base)).headers["X-Nonce"]).toBe("from-the-source-0001");
    const broken = createRequestSigner({ ...base, nonceSource: () => "short" });
    await expect(broken.sign(base)).rejects.toThrow(/nonceSource must return 16-128 characters/);
  });

  it("the credentials are checked once, when the signer is made", () => {
    expect(() => createRequestSigner({ ...base, apiKey: "" })).toThrow(TypeError);
    expect(() => createRequestSigner({ ...base, secret: "" })).toThrow(TypeError);
  });
});
