import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, JSON_LINES, logStyle, scrubCredentials } from "./log";

const terminal = { isTTY: true };
const pipe = { isTTY: false };

describe("logStyle: readable lines for a person at a terminal, JSON for machines, colour only where it helps", () => {
  it.each([
    { case: "auto on a terminal", format: "auto", output: terminal, env: {}, style: { readable: true, colour: true } },
    { case: "auto into a pipe or file", format: "auto", output: pipe, env: {}, style: JSON_LINES },
    {
      case: "NO_COLOR on a terminal",
      format: "auto",
      output: terminal,
      env: { NO_COLOR: "1" },
      style: { readable: true, colour: false },
    },
    {
      case: "CI on a terminal",
      format: "auto",
      output: terminal,
      env: { CI: "true" },
      style: { readable: true, colour: false },
    },
    {
      case: "FORCE_COLOR=0 on a terminal",
      format: "auto",
      output: terminal,
      env: { FORCE_COLOR: "0" },
      style: { readable: true, colour: false },
    },
    {
      case: "CI=false does not count as CI",
      format: "auto",
      output: terminal,
      env: { CI: "false" },
      style: { readable: true, colour: true },
    },
    {
      case: "pretty asked for, into a pipe: readable, never coloured",
      format: "pretty",
      output: pipe,
      env: {},
      style: { readable: true, colour: false },
    },
    { case: "json asked for on a terminal", format: "json", output: terminal, env: {}, style: JSON_LINES },
  ] as const)("$case", ({ format, output, env, style }) => {
    expect(logStyle(format, output, env)).toEqual(style);
  });
});

function capture() {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  return { stream, text: () => text };
}

describe("createLogger", () => {
  it("readable lines: level, message and fields on one line; no ANSI codes without colour; credentials still scrubbed", () => {
    const { stream, text } = capture();
    const logger = createLogger("info", stream, { readable: true, colour: false });
    logger.info({ url: "http://127.0.0.1:8080", secret: "s3cret" }, "listening");
    logger.info("ticket lt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA issued");
    const [first, second] = text().trimEnd().split("\n");
    expect(first).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: listening \{"url":"http:\/\/127\.0\.0\.1:8080","secret":"\[REDACTED\]"\}$/,
    );
    expect(second).toContain("lt_[REDACTED]");
    expect(text()).not.toMatch(/\u001b\[/);
  });

  it("colour adds ANSI codes", () => {
    const { stream, text } = capture();
    createLogger("info", stream, { readable: true, colour: true }).warn("careful");
    expect(text()).toMatch(/\u001b\[/);
  });

  it("JSON lines by default", () => {
    const { stream, text } = capture();
    createLogger("info", stream).info({ requestId: "req_1" }, "answered");
    expect(JSON.parse(text())).toMatchObject({
      level: "info",
      msg: "answered",
      requestId: "req_1",
      service: "webinar-server",
    });
  });
});

describe("scrubCredentials: console invites and sessions never reach a log line", () => {
  it.each([
    [
      "an invite link",
      "see http://127.0.0.1:8080/console/invite#token=inv_Jq3x9Vb0e2TQmW8kLr5yNc7ZpA1sDf4GxyzABCDEFG",
      "inv_Jq3x",
    ],
    ["a console session token", "cookie webinar_console=cs_Jq3x9Vb0e2TQmW8kLr5yNc7ZpA1sDf4GxyzABCDEFG", "cs_Jq3x"],
  ])("%s is replaced", (_name, line, secretPart) => {
    const scrubbed = scrubCredentials(line);
    expect(scrubbed).not.toContain(secretPart);
    expect(scrubbed).toContain("[REDACTED]");
  });
});
