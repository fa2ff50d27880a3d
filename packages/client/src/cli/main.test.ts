import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { limits } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { createDataset, TICKET_CODE } from "../../test/support/dataset";
import { startServer } from "../../test/support/fixtures";
import { apiError, TEST_API_KEY, TEST_SECRET, type VerifyingServer } from "../../test/support/verifying-server";
import { COMMANDS } from "./commands";
import { EXIT, main } from "./main";

function memoryIo(env: Record<string, string | undefined>, stderrIsTTY = false) {
  const captured = { stdout: "", stderr: "" };
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTTY });
  stdout.on("data", (chunk: Buffer) => (captured.stdout += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => (captured.stderr += chunk.toString("utf8")));
  return { io: { stdout, stderr, env }, captured };
}

async function run(
  argv: string[],
  server?: VerifyingServer,
  options: { tty?: boolean; env?: Record<string, string>; stdoutIsEmptyFile?: boolean } = {},
) {
  const env =
    server === undefined
      ? {}
      : { WEBINAR_BASE_URL: server.baseUrl, WEBINAR_API_KEY: TEST_API_KEY, WEBINAR_API_SECRET: TEST_SECRET };
  const { io, captured } = memoryIo({ ...env, ...options.env }, options.tty);
  const exitCode = await main(argv, { ...io, stdoutIsEmptyFile: options.stdoutIsEmptyFile === true });
  return { exitCode, ...captured };
}

const overview = ["overview", "--ticket-code", TICKET_CODE, "--mode", "ALL"];
const exportCsv = [
  "viewers",
  "export",
  "--format",
  "csv",
  "--ticket-code",
  TICKET_CODE,
  "--mode",
  "REPLAY",
  "--sort",
  "WATCH_SECONDS_DESC",
];

describe("webinar help", () => {
  it.each(COMMANDS.map((command) => ({ name: command.name })))(
    "`webinar $name --help` prints its usage and options, exit 0, no credentials needed",
    async ({ name }) => {
      const result = await run([...name.split(" "), "--help"]);
      expect(result).toMatchObject({ exitCode: EXIT.ok, stderr: "" });
      expect(result.stdout).toContain(`Usage: webinar ${name}`);
      expect(result.stdout).toContain("--api-secret <secret>");
    },
  );

  it("`webinar --help` lists every command; no arguments prints it to stderr with exit 2", async () => {
    const help = await run(["--help"]);
    expect(help.exitCode).toBe(EXIT.ok);
    for (const command of COMMANDS) expect(help.stdout).toContain(command.name);
    expect(await run([])).toMatchObject({ exitCode: EXIT.usage, stdout: "" });
  });

  it("--version prints the package version", async () => {
    expect((await run(["--version"])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("usage errors exit 2 and send nothing", () => {
  const tooManyIds = Array.from({ length: limits.maxCombinedIds + 1 }, (_, index) => String(10000 + index)).join(",");
  it.each([
    { rule: "unknown command", argv: ["frobnicate"], message: "unknown command: frobnicate" },
    { rule: "unknown option", argv: [...overview, "--colour"], message: "--colour" },
    { rule: "missing required option", argv: ["ticket", "--uid", "10001"], message: "--ticket-code is required" },
    {
      rule: "not a number",
      argv: ["ticket", "--uid", "ten", "--ticket-code", TICKET_CODE],
      message: "--uid must be a whole number",
    },
    {
      rule: "enum value outside the spec",
      argv: ["overview", "--ticket-code", TICKET_CODE, "--mode", "live"],
      message: "--mode must be one of ALL, LIVE, REPLAY",
    },
    { rule: "extra argument", argv: [...overview, "extra"], message: "unexpected argument: extra" },
    {
      rule: "contradictory flags",
      argv: ["upsert", "--external-user-id", "x", "--display-name", "A", "--clear-display-name"],
      message: "exclude each other",
    },
    {
      rule: `more than ${limits.maxCombinedIds} ids on one page`,
      argv: [
        "viewers",
        "--ticket-code",
        TICKET_CODE,
        "--mode",
        "ALL",
        "--sort",
        "WATCH_SECONDS_DESC",
        "--page-size",
        "10",
        "--uid",
        tooManyIds,
      ],
      message: "viewers export",
    },
    {
      rule: "unknown export format",
      argv: [...exportCsv.slice(0, 3), "xml", ...exportCsv.slice(4)],
      message: "--format must be one of csv, jsonl",
    },
    {
      rule: "an invalid base URL",
      argv: [...overview, "--base-url", "not a url"],
      message: "baseUrl must be an absolute",
    },
  ])("$rule", async ({ argv, message }) => {
    const server = await startServer();
    const result = await run(argv, server);
    expect(result.exitCode).toBe(EXIT.usage);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("--help' for usage");
    expect(server.received).toHaveLength(0);
  });

  it("missing credentials name what to set", async () => {
    const result = await run(overview);
    expect(result.exitCode).toBe(EXIT.usage);
    expect(result.stderr).toContain(
      "missing credentials: --base-url or WEBINAR_BASE_URL, --api-key or WEBINAR_API_KEY, --api-secret or WEBINAR_API_SECRET",
    );
  });

  it("an export without credentials writes nothing to stdout, not even the CSV header", async () => {
    expect(await run(exportCsv)).toMatchObject({ exitCode: EXIT.usage, stdout: "" });
  });

  it("flags override the environment", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const result = await run(
      [...overview, "--base-url", server.baseUrl, "--api-key", TEST_API_KEY, "--api-secret", TEST_SECRET],
      undefined,
      { env: { WEBINAR_BASE_URL: "http://127.0.0.1:9", WEBINAR_API_KEY: "wrong", WEBINAR_API_SECRET: "wrong" } },
    );
    expect(result.exitCode).toBe(EXIT.ok);
    expect(server.received[0]!.verdict).toBe("ok");
  });
});

describe("option values that start with -", () => {
  // About 1 in 64 base64url secrets starts with "-": parseArgs alone calls such a value ambiguous.
  const DASH_SECRET = "-Kq8vZ2mX0pL7wYbN4rT9cE1uA6sD3fG";

  it.each([
    { form: "--api-secret <value>", argv: (secret: string) => ["--api-secret", secret] },
    { form: "--api-secret=<value>", argv: (secret: string) => [`--api-secret=${secret}`] },
  ])("$form signs with the whole value", async ({ argv }) => {
    const server = await startServer({ dataset: createDataset(1), credentials: { [TEST_API_KEY]: DASH_SECRET } });
    const result = await run([
      ...overview,
      "--base-url",
      server.baseUrl,
      "--api-key",
      TEST_API_KEY,
      ...argv(DASH_SECRET),
    ]);
    expect(result).toMatchObject({ exitCode: EXIT.ok, stderr: "" });
    expect(server.received.map((request) => request.verdict)).toEqual(["ok"]);
  });

  it("a value-taking option at the end still lacks its value", async () => {
    const result = await run([...overview, "--api-secret"]);
    expect(result.exitCode).toBe(EXIT.usage);
    expect(result.stderr).toContain("--api-secret");
  });
});

describe("--env-file", () => {
  async function envFile(text: string): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), "webinar-cli-"));
    const file = path.join(dir, "credentials.env");
    await writeFile(file, text);
    return file;
  }

  it("reads the credentials from a dotenv file such as the reference server's demo-credentials.env", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const file = await envFile(
      `# comment\nWEBINAR_BASE_URL=${server.baseUrl}\nWEBINAR_API_KEY=${TEST_API_KEY}\nWEBINAR_API_SECRET=${TEST_SECRET}\n`,
    );
    const result = await run([...overview, "--env-file", file]);
    expect(result.exitCode).toBe(EXIT.ok);
    expect(server.received[0]!.verdict).toBe("ok");
  });

  it("the environment wins over the file, and flags over both", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const file = await envFile(
      `WEBINAR_BASE_URL=http://127.0.0.1:9\nWEBINAR_API_KEY=wrong\nWEBINAR_API_SECRET=wrong\n`,
    );
    const fromEnvironment = await run([...overview, "--env-file", file], server);
    expect(fromEnvironment.exitCode).toBe(EXIT.ok);
    const fromFlags = await run([
      ...overview,
      "--env-file",
      file,
      "--base-url",
      server.baseUrl,
      "--api-key",
      TEST_API_KEY,
      "--api-secret",
      TEST_SECRET,
    ]);
    expect(fromFlags.exitCode).toBe(EXIT.ok);
    expect(server.received.map((request) => request.verdict)).toEqual(["ok", "ok"]);
  });

  it("a missing file is a usage error naming it", async () => {
    const result = await run([...overview, "--env-file", "no-such-file.env"]);
    expect(result.exitCode).toBe(EXIT.usage);
    expect(result.stderr).toContain("--env-file no-such-file.env: no such file");
  });
});

describe("failures", () => {
  it("Errors and retries: --json turns an API error into JSON on stderr", async () => {
    const server = await startServer();
    server.script("getWatchOverview", apiError(404, "WEBINAR_NOT_FOUND", "no such webinar"));
    const result = await run([...overview, "--json"], server);
    expect(result.exitCode).toBe(EXIT.apiError);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        type: "api",
        status: 404,
        code: "WEBINAR_NOT_FOUND",
        message: "no such webinar",
        requestId: expect.stringMatching(/^req_/),
      },
    });
  });

  it("ErrorEnvelope: each details entry is printed on its own line (field and message), after the code and requestId", async () => {
    const server = await startServer();
    const details = {
      errors: [
        { pointer: "/phone", rule: "type", message: "must be string" },
        { pointer: "", rule: "maxCombinedIds", message: "at most 300 ids" },
      ],
      matches: ["forbidden-word", "other"],
    };
    const invalid = apiError(400, "REQUEST_INVALID", "request body is invalid", { details });
    server.script("upsertViewer", invalid, invalid);
    const result = await run(["upsert", "--external-user-id", "crm-1"], server);
    expect(result.exitCode).toBe(EXIT.apiError);
    expect(result.stderr).toMatch(
      /^webinar: REQUEST_INVALID: request body is invalid \(HTTP 400, requestId req_scripted_\w+\)\n/,
    );
    expect(result.stderr.split("\n").slice(1)).toEqual([
      "  /phone: must be string",
      "  (body): at most 300 ids",
      "  matches: forbidden-word, other",
      "",
    ]);
    const json = await run(["upsert", "--external-user-id", "crm-1", "--json"], server);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: "REQUEST_INVALID", details } });
  });

  it("a gateway's HTML page exits 3", async () => {
    const server = await startServer();
    server.scriptGateway("*", { status: 413, text: "<html>too large</html>" });
    const result = await run(overview, server);
    expect(result.exitCode).toBe(EXIT.noValidAnswer);
    expect(result.stderr).toContain("invalid answer: HTTP 413");
  });

  it("an unreachable server exits 3 after the retries", async () => {
    const server = await startServer();
    await server.close();
    const result = await run([...overview, "--timeout-ms", "2000"], server);
    expect(result.exitCode).toBe(EXIT.noValidAnswer);
    expect(result.stderr).toMatch(
      /WebinarConnectionError: could not reach the server: .*ECONNREFUSED.* \(after 3 attempts\)/,
    );
  }, 20_000);
});

describe("output", () => {
  it("text output of the overview", async () => {
    const server = await startServer({ dataset: createDataset(4) });
    const result = await run(overview, server);
    expect(result.stdout).toMatch(/^ticketCode +WBN8K2QX$/m);
    expect(result.stdout).toMatch(/^registered +4 +\d+ +\d+$/m);
  });

  it(`export with more than ${limits.maxCombinedIds} ids runs in batches and writes the merged records`, async () => {
    const server = await startServer({ dataset: createDataset(20) });
    const ids = Array.from({ length: 400 }, (_, index) => String(10000 + index * 2)).join(",");
    const result = await run([...exportCsv, "--uid", ids], server);
    expect(result.exitCode).toBe(EXIT.ok);
    expect(result.stdout.split("\r\n").filter(Boolean)).toHaveLength(1 + 10);
    expect(server.received).toHaveLength(2);
  });

  it("a progress line goes to stderr only when stderr is a terminal", async () => {
    const server = await startServer({ dataset: createDataset(30) });
    const tty = await run([...exportCsv, "--page-size", "10"], server, { tty: true });
    expect(tty.stderr).toBe(
      "\rexported 10 records (1 page)\rexported 20 records (2 pages)\rexported 30 records (3 pages)\n",
    );
    const piped = await run([...exportCsv, "--page-size", "10"], server);
    expect(piped.stderr).toBe("");
  });

  it.each([
    { case: "csv to an empty file", argv: exportCsv, stdoutIsEmptyFile: true, mark: true },
    {
      case: "csv to an empty file with --no-bom",
      argv: [...exportCsv, "--no-bom"],
      stdoutIsEmptyFile: true,
      mark: false,
    },
    { case: "csv to a pipe, a terminal or an appended file", argv: exportCsv, stdoutIsEmptyFile: false, mark: false },
    {
      case: "jsonl to an empty file",
      argv: exportCsv.map((arg) => (arg === "csv" ? "jsonl" : arg)),
      stdoutIsEmptyFile: true,
      mark: false,
    },
  ])("export, $case: starts with the UTF-8 byte-order mark: $mark", async ({ argv, stdoutIsEmptyFile, mark }) => {
    const server = await startServer({ dataset: createDataset(2) });
    const result = await run(argv, server, { stdoutIsEmptyFile });
    expect(result.exitCode).toBe(EXIT.ok);
    expect(result.stdout.startsWith("\uFEFF")).toBe(mark);
    expect(result.stdout.indexOf("\uFEFF", 1)).toBe(-1);
  });

  it("ticket: the text says when the link expires and that an expired link needs a new one", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const result = await run(["ticket", "--uid", "10000", "--ticket-code", TICKET_CODE], server);
    expect(result.exitCode).toBe(EXIT.ok);
    // The verifying server issues tickets valid for 60 s.
    expect(result.stdout).toMatch(/^expiresAt +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(in (59|60) s\)$/m);
    expect(result.stdout).toContain(
      "After that (or once used) it no longer works: ask for a new\nlink by running `webinar ticket` again.",
    );
  });
});

describe("webinar viewers", () => {
  const viewers = ["viewers", "--ticket-code", TICKET_CODE, "--mode", "REPLAY", "--sort", "WATCH_SECONDS_DESC"];

  it("prints one page without --page-size (the spec's maximum is sent)", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    const result = await run(viewers, server);
    expect(result.exitCode).toBe(EXIT.ok);
    expect(server.received.map((request) => request.json?.pageSize)).toEqual([limits.pageSizeMax]);
    expect(result.stdout).toContain("nextCursor  (none: last page)");
  });

  it("queryViewerWatch: a page with more prints the command for the next one, and following it continues the query", async () => {
    const server = await startServer({ dataset: createDataset(25) });
    const first = await run([...viewers, "--page-size", "10"], server);
    const hint = /^More records: run the same command with --cursor '([^']+)', or with --all for every page\.$/m.exec(
      first.stdout,
    );
    expect(hint).not.toBeNull();
    const second = await run([...viewers, "--page-size", "10", "--cursor", hint![1]!], server);
    expect(second.exitCode).toBe(EXIT.ok);
    expect(server.received.map((request) => request.json?.cursor)).toEqual([undefined, hint![1]]);
    const uids = (output: string) =>
      output
        .split("\n")
        .filter((line) => /^\d{5} /.test(line))
        .map((line) => line.split(" ")[0]);
    expect(uids(first.stdout)).toHaveLength(10);
    expect(uids(second.stdout)).toHaveLength(10);
    expect(new Set([...uids(first.stdout), ...uids(second.stdout)]).size).toBe(20);
  });

  it("--all follows every page: one table, the count of records and pages, each page's requestId", async () => {
    const server = await startServer({ dataset: createDataset(25) });
    const result = await run([...viewers, "--page-size", "10", "--all"], server);
    expect(result.exitCode).toBe(EXIT.ok);
    expect(server.received).toHaveLength(3);
    expect(result.stdout.split("\n").filter((line) => /^\d{5} /.test(line))).toHaveLength(25);
    expect(result.stdout).toContain("25 records in 3 pages");
    expect(result.stdout).toMatch(/^requestIds +req_\d+ req_\d+ req_\d+$/m);
    expect(result.stdout).not.toContain("More records");
  });

  it("--all --json prints one { requestId, data } line per page", async () => {
    const server = await startServer({ dataset: createDataset(25) });
    const result = await run([...viewers, "--page-size", "10", "--all", "--json"], server);
    const pages = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { requestId: string; data: { items: unknown[]; nextCursor?: string } });
    expect(pages.map((page) => page.data.items.length)).toEqual([10, 10, 5]);
    expect(pages.every((page) => page.requestId.startsWith("req_"))).toBe(true);
    expect(pages[2]!.data.nextCursor).toBeUndefined();
  });

  it("--all with --cursor is a usage error and sends nothing", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    const result = await run([...viewers, "--all", "--cursor", "abc"], server);
    expect(result.exitCode).toBe(EXIT.usage);
    expect(result.stderr).toContain("--all starts at the first page");
    expect(server.received).toHaveLength(0);
  });
});

describe("verbose", () => {
  it("--verbose logs each attempt to stderr, without secrets, signatures or login URLs", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script(
      "issueLoginTicket",
      apiError(503, "PUBLIC_METADATA_UNAVAILABLE", undefined, { headers: { "Retry-After": "0" } }),
    );
    const result = await run(["ticket", "--uid", "10000", "--ticket-code", TICKET_CODE, "--verbose"], server);
    expect(result.exitCode).toBe(EXIT.ok);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^webinar: POST \/api\/v1\/open\/viewers\/login-tickets attempt 1: 503 PUBLIC_METADATA_UNAVAILABLE in \d+ ms requestId req_scripted_\w+ retry in 0 ms$/,
    );
    expect(lines[1]).toMatch(/attempt 2: 200 in \d+ ms requestId req_\d+$/);
    expect(result.stderr).not.toContain("login_ticket");
    expect(result.stderr).not.toContain(TEST_SECRET);
    for (const request of server.received) expect(result.stderr).not.toContain(request.header("x-signature"));
  });
});
