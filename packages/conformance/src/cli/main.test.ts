import { describe, expect, it } from "vitest";
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
      /--clock-skew-seconds must be a positive integer/,
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
