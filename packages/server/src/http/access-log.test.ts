import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, REDACT_PATHS } from "../logging/log";
import { ACCESS_LINE_FIELDS, accessLog } from "./access-log";
import type { RequestObservation } from "./request-observation";

function capturedLogger() {
  const written: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger("info", destination), lines: () => written.join("").split("\n").filter(Boolean) };
}

const observation: RequestObservation = {
  requestId: "req_0193a1b2c3d4e5f60718293a4b5c6d7e",
  surface: "open",
  method: "POST",
  path: "/api/v1/open/viewers/upsert",
  status: 200,
  durationMs: 3.14,
  startedAt: Date.UTC(2026, 10, 29),
  operationId: "upsertViewer",
  merchantId: "m_1",
  errorCode: undefined,
};

describe("accessLog: one line per answered request", () => {
  it("writes exactly its fixed fields, each a plain value", () => {
    const { logger, lines } = capturedLogger();
    accessLog(logger)({ ...observation, errorCode: "OPEN_API_REPLAYED" }, undefined as never);
    const [line] = lines().map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(line).toMatchObject({ msg: "request", durationMs: 3.1, operationId: "upsertViewer", status: 200 });
    const own = Object.keys(line!).filter(
      (key) => !["level", "time", "pid", "hostname", "service", "msg"].includes(key),
    );
    expect(own.sort()).toEqual([...ACCESS_LINE_FIELDS].sort());
    for (const field of ACCESS_LINE_FIELDS) expect(["string", "number"]).toContain(typeof line![field]);
  });

  it("has no field that redaction censors, so going without redaction hides nothing it would have", () => {
    // A redaction path's first segment is a top-level field it censors (`secret`, `headers["cookie"]`); the
    // wildcard paths (`*.secret`) censor fields inside objects, and an access line holds none.
    const censoredTopLevel = REDACT_PATHS.filter((path) => !path.startsWith("*.")).map((path) => /^\w+/.exec(path)![0]);
    expect(censoredTopLevel).toContain("secret");
    expect(ACCESS_LINE_FIELDS.filter((field) => censoredTopLevel.includes(field))).toEqual([]);
  });

  it("still censors a credential-shaped value, whatever field carries it", () => {
    const { logger, lines } = capturedLogger();
    const ticket = `lt_${"A".repeat(43)}`;
    accessLog(logger)({ ...observation, requestId: ticket, path: `/w/demo/${ticket}` }, undefined as never);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).not.toContain("A".repeat(43));
    expect(lines()[0]).toContain("lt_[REDACTED]");
  });
});
