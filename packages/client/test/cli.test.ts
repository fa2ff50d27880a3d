/**
 * The `webinar` CLI run as a child process (tsx on src/cli.ts, workspace packages from source) against the
 * verifying server: exports of a multi-page result as CSV (to a pipe and to a file) and JSON Lines, the flow of upsert and ticket, and how
 * failures reach stderr and the exit code.
 */
import { mkdtemp, open, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ViewerWatchRecord } from "@org/webinar-types";
import { VIEWER_CSV_COLUMNS } from "../src/csv";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { startServer } from "./support/fixtures";
import { runTypeScript, runTypeScriptToFile, SPAWN_TIMEOUT_MS } from "./support/run-typescript";
import { TEST_API_KEY, TEST_SECRET, type VerifyingServer } from "./support/verifying-server";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const credentials = (server: VerifyingServer) => ({
  WEBINAR_BASE_URL: server.baseUrl,
  WEBINAR_API_KEY: TEST_API_KEY,
  WEBINAR_API_SECRET: TEST_SECRET,
});
const webinar = (server: VerifyingServer, ...args: string[]) => runTypeScript(cli, args, credentials(server));

/** An RFC 4180 reader written for the test, independent of the CLI's writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      index += 1;
    } else field += char;
  }
  if (field !== "" || row.length > 0) throw new Error("the CSV does not end with CRLF");
  return rows;
}

const exportArgs = [
  "viewers",
  "export",
  "--ticket-code",
  TICKET_CODE,
  "--mode",
  "REPLAY",
  "--sort",
  "WATCH_SECONDS_DESC",
  "--page-size",
  "25",
];
/** The order the server pages in, computed independently: seconds descending, then uid. */
const serverOrder = (records: ViewerWatchRecord[]) =>
  [...records].sort((a, b) => b.totalWatchSeconds - a.totalWatchSeconds || a.uid - b.uid);

describe("webinar viewers export", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("queryViewerWatch: --format csv writes every page: a header and one row per record, quoted where needed, arrays joined with |, formulas defused", async () => {
    const dataset = createDataset(237);
    // Display names a spreadsheet would read as formulas (the spec's DisplayName allows them).
    const formulas = ["=HYPERLINK(1)", "+1", "-1", "@SUM(1)", '=A1,"x"'];
    dataset.records.get(TICKET_CODE)!.forEach((record, index) => {
      if (index % 7 === 3) record.displayName = formulas[index % formulas.length]!;
    });
    const server = await startServer({ dataset });
    const result = await webinar(server, ...exportArgs, "--format", "csv");
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    expect(result.stdout.startsWith("uid,")).toBe(true); // to a pipe: no byte-order mark
    const [header, ...rows] = parseCsv(result.stdout);
    expect(header).toEqual([...VIEWER_CSV_COLUMNS]);
    const expected = serverOrder(server.dataset.records.get(TICKET_CODE)!);
    expect(rows).toHaveLength(237);
    expect(rows.map((row) => Number(row[0]))).toEqual(expected.map((record) => record.uid));
    const column = (name: string) => header!.indexOf(name);
    const defused = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    rows.forEach((row, index) => {
      const record = expected[index]!;
      expect(row[column("displayName")]).toBe(defused(record.displayName ?? ""));
      expect(row[column("phone")]).toBe(record.phone ?? "");
      expect(row[column("deviceTypes")]).toBe(record.deviceTypes.join("|"));
      expect(Number(row[column("totalWatchSeconds")])).toBe(record.totalWatchSeconds);
    });
    expect(rows.some((row) => row[column("displayName")]!.includes('"'))).toBe(true);
    expect(rows.filter((row) => row[column("displayName")]!.startsWith("'"))).toHaveLength(34);
    expect(server.received).toHaveLength(10);
  });

  it("--format csv into a new file starts with a UTF-8 byte-order mark for Excel; --no-bom leaves it out", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    const folder = await mkdtemp(path.join(os.tmpdir(), "webinar-csv-"));
    const exportTo = async (file: string, ...extra: string[]) => {
      const stdout = await open(path.join(folder, file), "w");
      try {
        const args = [...exportArgs, "--format", "csv", ...extra];
        const result = await runTypeScriptToFile(cli, args, credentials(server), stdout.fd);
        expect(result).toMatchObject({ exitCode: 0, stderr: "" });
      } finally {
        await stdout.close();
      }
      return readFile(path.join(folder, file), "utf8");
    };
    const withMark = await exportTo("viewers.csv");
    expect(withMark.startsWith("\uFEFFuid,")).toBe(true);
    expect(parseCsv(withMark.slice(1))).toHaveLength(1 + 3);
    expect((await exportTo("plain.csv", "--no-bom")).startsWith("uid,")).toBe(true);
  });

  it("queryViewerWatch: --format jsonl writes one record per line, exactly as the API returned it", async () => {
    const server = await startServer({ dataset: createDataset(237) });
    const result = await webinar(server, ...exportArgs, "--format", "jsonl");
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    const lines = result.stdout.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(
      serverOrder(server.dataset.records.get(TICKET_CODE)!),
    );
    expect(server.received).toHaveLength(10);
  });
});

describe("webinar upsert, ticket, viewers", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("the typical flow: upsert then ticket: --json prints { requestId, data }, text prints the loginUrl", async () => {
    const server = await startServer({ dataset: createDataset(0) });
    const upsert = await webinar(
      server,
      "upsert",
      "--external-user-id",
      "crm-10086",
      "--phone",
      "13800138000",
      "--display-name",
      "张三",
      "--json",
    );
    expect(upsert).toMatchObject({ exitCode: 0, stderr: "" });
    const upserted = JSON.parse(upsert.stdout) as {
      requestId: string;
      data: { viewer: { uid: number }; created: boolean };
    };
    expect(upserted).toMatchObject({
      requestId: expect.stringMatching(/^req_/),
      data: { created: true, viewer: { externalUserId: "crm-10086", displayName: "张三" } },
    });

    const ticket = await webinar(
      server,
      "ticket",
      "--uid",
      String(upserted.data.viewer.uid),
      "--ticket-code",
      TICKET_CODE,
    );
    expect(ticket).toMatchObject({ exitCode: 0, stderr: "" });
    expect(ticket.stdout).toMatch(
      new RegExp(`^loginUrl +https://watch\\.example\\.com/w/${TICKET_CODE}#login_ticket=lt_`, "m"),
    );
    expect(ticket.stdout).toMatch(/^requestId +req_/m);
  });

  it("viewers prints one page and the cursor to continue with", async () => {
    const server = await startServer({ dataset: createDataset(30) });
    const result = await webinar(
      server,
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
      "10000,10001",
      "--uid",
      "10002",
      "--external-user-id",
      "crm-29",
    );
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    expect(server.received[0]!.json).toMatchObject({
      uids: [10000, 10001, 10002],
      externalUserIds: ["crm-29"],
      pageSize: 10,
    });
    expect(result.stdout.split("\n")[0]).toMatch(/^uid +externalUserId +name +totalWatchSeconds/);
    expect(result.stdout).toContain("crm-29");
    expect(result.stdout).toContain("nextCursor  (none: last page)");
  });
});

describe("failures", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("Errors and retries: an API error prints code, message and requestId to stderr and exits 1", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const result = await webinar(server, "upsert", "--external-user-id", "crm-other", "--phone", "13800000000");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^webinar: VIEWER_IDENTITY_CONFLICT: phone is bound to another viewer \(HTTP 409, requestId req_\d+\)\n$/,
    );
  });

  it("a usage error exits 2 and sends nothing", async () => {
    const server = await startServer();
    const result = await webinar(server, "overview", "--ticket-code", TICKET_CODE, "--mode", "SOMETIMES");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("--mode must be one of ALL, LIVE, REPLAY");
    expect(server.received).toHaveLength(0);
  });
});
