import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { bodyHash, canonicalString, sign } from "@org/webinar-signing";
import { afterEach, describe, expect, it } from "vitest";
import { EXIT, main } from "./main";

async function cli(argv: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  });
  return { code, stdout, stderr };
}

describe("webinar-conformance usage", () => {
  it("--help names every option and the exit codes", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(EXIT.ok);
    for (const option of [
      "--base-url",
      "--api-key",
      "--api-secret",
      "--ticket-code",
      "--json",
      "--junit",
      "--only",
      "--env-file",
    ])
      expect(stdout).toContain(option);
    expect(stdout).toContain("Exit codes: 0 every check passed, 1 a check failed, 2 usage error.");
  });

  it("--list prints every check's id and title and runs nothing", async () => {
    const { code, stdout } = await cli(["--list"]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/^signing\.correct {2}a correctly signed request/m);
    expect(stdout.trim().split("\n").length).toBeGreaterThan(300);
  });

  it.each([
    [
      [],
      {},
      /missing --base-url \(WEBINAR_BASE_URL\), --api-key \(WEBINAR_API_KEY\), --api-secret \(WEBINAR_API_SECRET\), --ticket-code \(WEBINAR_TICKET_CODE\)/,
    ],
    [["--bogus"], {}, /Unknown option '--bogus'/],
    [["--env-file", "/nonexistent/file.env"], {}, /--env-file \/nonexistent\/file.env: no such file/],
    [
      ["--clock-skew-seconds", "ten"],
      {
        WEBINAR_BASE_URL: "http://127.0.0.1:1",
        WEBINAR_API_KEY: "k",
        WEBINAR_API_SECRET: "s",
        WEBINAR_TICKET_CODE: "c",
      },
      /--clock-skew-seconds must be a positive number/,
    ],
    [
      ["--second-api-key", "k2"],
      {
        WEBINAR_BASE_URL: "http://127.0.0.1:1",
        WEBINAR_API_KEY: "k",
        WEBINAR_API_SECRET: "s",
        WEBINAR_TICKET_CODE: "c",
      },
      /--second-api-key and --second-api-secret go together/,
    ],
    [
      ["--only", "nothing-like-this"],
      {
        WEBINAR_BASE_URL: "http://127.0.0.1:1",
        WEBINAR_API_KEY: "k",
        WEBINAR_API_SECRET: "s",
        WEBINAR_DEMO_TICKET_CODE: "c",
      },
      /no check id starts with nothing-like-this/,
    ],
  ])("%j -> exit 2 with a message", async (argv, env, message) => {
    const { code, stderr } = await cli(argv, env);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(message);
  });
});

/** A server that accepts an upsert signed with `secret` (200, the spec's envelope) and refuses any other (401). */
async function upsertServer(secret: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks);
      const header = (name: string) => String(request.headers[name]);
      const canonical = canonicalString({
        apiKey: header("x-api-key"),
        path: request.url!,
        timestamp: header("x-timestamp"),
        nonce: header("x-nonce"),
        bodyHash: await bodyHash(new Uint8Array(body)),
      });
      const signed = (await sign(secret, canonical)) === header("x-signature");
      const { externalUserId } = JSON.parse(body.toString("utf8")) as { externalUserId: string };
      const answer = signed
        ? {
            requestId: `r${Math.random()}`,
            data: { viewer: { uid: 10001, externalUserId, phone: null, displayName: null }, created: true },
          }
        : { requestId: `r${Math.random()}`, error: { code: "OPEN_API_UNAUTHORIZED", message: "bad signature" } };
      response.writeHead(signed ? 200 : 401, { "content-type": "application/json", date: new Date().toUTCString() });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("webinar-conformance option values that start with -", () => {
  // About 1 in 64 base64url secrets starts with "-": parseArgs alone calls such a value ambiguous and exits 2.
  const DASH_SECRET = "-Kq8vZ2mX0pL7wYbN4rT9cE1uA6sD3fG";
  let running: Server | undefined;
  afterEach(() => running?.close());

  it.each([
    { form: "--api-secret <value>", secret: ["--api-secret", DASH_SECRET] },
    { form: "--api-secret=<value>", secret: [`--api-secret=${DASH_SECRET}`] },
  ])("$form signs with the whole value", async ({ secret }) => {
    const { url, server } = await upsertServer(DASH_SECRET);
    running = server;
    const argv = [
      "--base-url",
      url,
      "--api-key",
      "wk_dash",
      ...secret,
      "--ticket-code",
      "wbn-1",
      "--only",
      "signing.correct",
    ];
    const { code, stdout, stderr } = await cli(argv);
    expect(stderr).toBe("");
    expect(stdout).toContain("ok   signing.correct");
    expect(code).toBe(EXIT.ok);
  });
});

describe("webinar-conformance setup hooks on the command line", () => {
  const env = {
    WEBINAR_BASE_URL: "http://127.0.0.1:1",
    WEBINAR_API_KEY: "k",
    WEBINAR_API_SECRET: "s",
    WEBINAR_TICKET_CODE: "c",
  };
  const moduleFile = (source: string) => {
    const file = join(mkdtempSync(join(tmpdir(), "conformance-setup-")), "setup.mjs");
    writeFileSync(file, source);
    return file;
  };

  it.each([
    {
      rule: "--setup with --admin-url",
      argv: ["--setup", "x.mjs", "--admin-url", "http://127.0.0.1:1"],
      message: /--setup and --admin-url exclude each other/,
    },
    {
      rule: "--admin-url without its token",
      argv: ["--admin-url", "http://127.0.0.1:1"],
      message: /--admin-url needs --admin-token/,
    },
    {
      rule: "a module that cannot be loaded",
      argv: ["--setup", "/nonexistent/setup.mjs"],
      message: /--setup \/nonexistent\/setup.mjs: /,
    },
    {
      rule: "a module without the hooks",
      argv: () => ["--setup", moduleFile("export const other = 1;\n")],
      message: /exports neither default nor setup/,
    },
  ])("$rule -> exit 2", async ({ argv, message }) => {
    const { code, stderr } = await cli(typeof argv === "function" ? argv() : argv, env);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(message);
  });

  it("an admin token alone (as in the demo's credentials file) asks for no hooks: the state checks are skipped", async () => {
    const { code, stdout } = await cli(["--only", "state.merchant.suspended"], {
      ...env,
      WEBINAR_ADMIN_TOKEN: "t0ken-of-demo",
    });
    expect(code).toBe(EXIT.ok);
    expect(stdout).toContain("skip state.merchant.suspended");
  });

  it("a module's hooks are called, and a check whose hooks the module lacks is skipped and names them", async () => {
    const called = join(mkdtempSync(join(tmpdir(), "conformance-called-")), "terms.json");
    const file = moduleFile(
      `import { writeFileSync } from "node:fs";\nexport default ({ env }) => ({ async blockDisplayNameTerms(terms) { writeFileSync(env.CALLED, JSON.stringify(terms)); } });\n`,
    );
    const only = ["--only", "state.key.revoked", "--only", "state.display-name.blocked-term"];
    const { code, stdout } = await cli(["--setup", file, ...only], { ...env, CALLED: called });
    expect(readFileSync(called, "utf8")).toBe('["conformanceblockedterm"]');
    // The upsert that follows the hook finds no server at the base URL: the check fails, as it must.
    expect(code).toBe(EXIT.failed);
    expect(stdout).toContain(
      "needs the setup hooks createMerchant, createWebinar, createApiKey, revokeApiKey: pass --setup <module>",
    );
  });
});
