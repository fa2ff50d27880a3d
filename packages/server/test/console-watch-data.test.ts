/**
 * A webinar's watch data in the console API, on PGlite and on PostgreSQL, against playback sessions with known
 * numbers: the overview is the Open API's, every minute of the concurrency series, the watch-time buckets, the
 * devices and protocols, the viewers table is the detail query, and the CSV export holds the detail query's
 * records row by row (across export pages), in UTF-8 with a byte-order mark and RFC 4180 quoting (and quotes around
 * a `;` or a formula); an ANALYST sees phone numbers masked in both; exports and charts run a bounded number at
 * once per merchant (the server here allows 1), beyond which they answer 429 CONSOLE_BUSY with Retry-After.
 */
import { VIEWER_CSV_COLUMNS } from "@org/webinar-client/csv";
import type { ViewerWatchRecord } from "@org/webinar-types";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { streamViewerWatch } from "../src/watch-data/reads";
import { bulkSeedWatchData } from "./support/bulk-seed";
import { DATABASE_KINDS } from "./support/databases";
import { signedInPerson, type ConsolePersonClient } from "./support/console-client";
import { useServerPerFile } from "./support/server-per-file";

const MINUTE = 60_000;

/** The sessions of the scenario: [subject, mode, start, seconds, device, protocol]. */
const SESSIONS = [
  ["A", "LIVE", "2026-11-21T08:00:00Z", 600, "DESKTOP", "WEBRTC"],
  ["B", "LIVE", "2026-11-21T08:05:30Z", 120, "MOBILE", "HLS"],
  ["X", "LIVE", "2026-11-21T08:09:59Z", 1, undefined, undefined],
  ["C", "LIVE", "2026-11-21T08:12:00Z", 3700, "MOBILE", "HLS"],
  ["A", "REPLAY", "2026-11-22T09:00:00Z", 0, "TABLET", "HLS"],
  ["B", "REPLAY", "2026-11-22T09:00:30Z", 95, "DESKTOP", undefined],
] as const;

type Mode = "LIVE" | "REPLAY" | "ALL";
const inMode = (mode: Mode) => SESSIONS.filter((session) => mode === "ALL" || session[1] === mode);

/** The documented rule, written out: a session plays in every minute from its start's to the one before its end. */
function expectedSeries(mode: Mode): { minute: string; viewers: number }[] {
  const spans = inMode(mode).map(([, , start, seconds]) => {
    const from = Date.parse(start);
    const to = Math.max(from, from + seconds * 1000 - 1);
    return [Math.floor(from / MINUTE) * MINUTE, Math.floor(to / MINUTE) * MINUTE] as const;
  });
  const first = Math.min(...spans.map(([from]) => from));
  const last = Math.max(...spans.map(([, to]) => to));
  const points = [];
  for (let minute = first; minute <= last; minute += MINUTE)
    points.push({
      minute: new Date(minute).toISOString().replace(".000Z", "Z"),
      viewers: spans.filter(([from, to]) => from <= minute && minute <= to).length,
    });
  return points;
}

/** A small RFC 4180 reader: fields, quoted fields with doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    i += 1;
    if (quoted && char === '"' && next === '"') {
      field += '"';
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      field += char;
    } else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\r" && next === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i += 1;
    } else {
      field += char;
    }
  }
  return records;
}

/** The CSV field a record's value becomes (the export's documented rules). */
function exported(value: string | number | readonly string[] | undefined): string {
  if (value === undefined) return "";
  const text = Array.isArray(value) ? value.join("|") : String(value);
  return typeof value === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

describe.each(DATABASE_KINDS)("console watch data on %s", (kind) => {
  const fixture = useServerPerFile(kind, "console-watch", { WEBINAR_CONSOLE_HEAVY_READS_PER_MERCHANT: "1" });
  let person: ConsolePersonClient;
  let ticketCode: string;
  const uids: Record<string, number> = {};

  const setUp = async () => {
    if (person !== undefined) return;
    const { api, merchant } = fixture;
    person = await signedInPerson(api, merchant.merchantId, "watch@example.com");
    ticketCode = (await person.call("POST", "/console/api/webinars", { title: "Known sessions" })).body.webinar
      .ticketCode;
    const names = { A: 'Li, "Wei"', B: "=HYPERLINK(1)", C: "Wang; Fang" } as const;
    for (const subject of ["A", "B", "C"] as const) {
      const patch = names[subject] === undefined ? {} : { displayName: names[subject] };
      uids[subject] = (
        await merchant.client.upsertViewer({
          externalUserId: `known-${subject}`,
          phone: `1380000000${subject.charCodeAt(0) - 60}`,
          ...patch,
        })
      ).viewer.uid;
    }
    for (const [subject, mode, startedAt, watchSeconds, deviceType, protocol] of SESSIONS) {
      const answer = await api.admin("POST", `/admin/v1/webinars/${ticketCode}/playback-sessions`, {
        subject: subject === "X" ? { anonymousId: "anon-x" } : { uid: uids[subject] },
        mode,
        watchSeconds,
        startedAt,
        ...(deviceType === undefined ? {} : { deviceType }),
        ...(protocol === undefined ? {} : { protocol }),
      });
      expect(answer.status).toBe(201);
    }
    for (const action of ["START", "END"])
      expect((await person.call("POST", `/console/api/webinars/${ticketCode}/live`, { action })).status).toBe(200);
    expect((await person.call("POST", `/console/api/webinars/${ticketCode}/finalize`, {})).status).toBe(200);
  };

  it.each(["LIVE", "REPLAY", "ALL"] as const)("%s overview: the Open API's numbers and dataState", async (mode) => {
    await setUp();
    const console = await person.call("GET", `/console/api/webinars/${ticketCode}/watch/overview?mode=${mode}`);
    const open = await fixture.merchant.client.getWatchOverview({ ticketCode, playbackMode: mode });
    const { requestId: _ignored, ...numbers } = console.body;
    expect(numbers).toEqual(open);
  });

  it.each(["LIVE", "REPLAY", "ALL"] as const)("%s concurrency: every minute's count", async (mode) => {
    await setUp();
    const answer = await person.call("GET", `/console/api/webinars/${ticketCode}/watch/concurrency?mode=${mode}`);
    expect(answer.status).toBe(200);
    expect(answer.body.points).toEqual(expectedSeries(mode));
  });

  it("the LIVE series by hand: the first minutes", async () => {
    await setUp();
    const answer = await person.call("GET", `/console/api/webinars/${ticketCode}/watch/concurrency?mode=LIVE`);
    const viewers = answer.body.points.map((point: { viewers: number }) => point.viewers);
    // 08:00-08:04 A; 08:05-08:07 A+B; 08:08 A; 08:09 A+X; 08:10, 08:11 nobody; from 08:12 C.
    expect(viewers.slice(0, 14)).toEqual([1, 1, 1, 1, 1, 2, 2, 2, 1, 2, 0, 0, 1, 1]);
    expect(answer.body.points).toHaveLength(12 + 62);
  });

  it.each([
    ["LIVE", [1, 1, 1, 0, 0, 1, 0]],
    ["REPLAY", [1, 1, 0, 0, 0, 0, 0]],
    ["ALL", [1, 1, 1, 0, 0, 1, 0]],
  ] as const)("%s watch-time distribution buckets", async (mode, subjects) => {
    await setUp();
    const answer = await person.call(
      "GET",
      `/console/api/webinars/${ticketCode}/watch/watch-time-distribution?mode=${mode}`,
    );
    expect(answer.body.buckets).toEqual([
      { minSeconds: 0, maxSeconds: 60, subjects: subjects[0] },
      { minSeconds: 60, maxSeconds: 300, subjects: subjects[1] },
      { minSeconds: 300, maxSeconds: 900, subjects: subjects[2] },
      { minSeconds: 900, maxSeconds: 1800, subjects: subjects[3] },
      { minSeconds: 1800, maxSeconds: 3600, subjects: subjects[4] },
      { minSeconds: 3600, maxSeconds: 7200, subjects: subjects[5] },
      { minSeconds: 7200, maxSeconds: null, subjects: subjects[6] },
    ]);
  });

  it("devices and protocols of ALL sessions", async () => {
    await setUp();
    const answer = await person.call("GET", `/console/api/webinars/${ticketCode}/watch/devices?mode=ALL`);
    expect(answer.body.deviceTypes).toEqual([
      { name: "DESKTOP", sessions: 2, watchSeconds: 695 },
      { name: "MOBILE", sessions: 2, watchSeconds: 3820 },
      { name: "TABLET", sessions: 1, watchSeconds: 0 },
      { name: "UNKNOWN", sessions: 1, watchSeconds: 1 },
    ]);
    expect(answer.body.protocols).toEqual([
      { name: "HLS", sessions: 3, watchSeconds: 3820 },
      { name: "UNKNOWN", sessions: 2, watchSeconds: 96 },
      { name: "WEBRTC", sessions: 1, watchSeconds: 600 },
    ]);
  });

  it("queryViewers is the Open API's detail query: records, filters, cursor pages and its refusals", async () => {
    await setUp();
    const query = { sort: "WATCH_SECONDS_DESC", pageSize: 2, minWatchSeconds: 100 } as const;
    const first = await person.call("POST", `/console/api/webinars/${ticketCode}/watch/viewers/query`, {
      mode: "ALL",
      ...query,
    });
    const open = await fixture.merchant.client.queryViewerWatch({ ticketCode, playbackMode: "ALL", ...query });
    expect(first.body.items).toEqual(open.items);
    const second = await person.call("POST", `/console/api/webinars/${ticketCode}/watch/viewers/query`, {
      mode: "ALL",
      ...query,
      cursor: first.body.nextCursor,
    });
    expect([...first.body.items, ...second.body.items].map((item: ViewerWatchRecord) => item.uid)).toEqual([
      uids.C,
      uids.A,
      uids.B,
    ]);
    const tooMany = await person.call("POST", `/console/api/webinars/${ticketCode}/watch/viewers/query`, {
      mode: "ALL",
      ...query,
      uids: Array.from({ length: 200 }, (_, i) => 10_000 + i),
      externalUserIds: Array.from({ length: 101 }, (_, i) => `e-${i}`),
    });
    expect(tooMany).toMatchObject({ status: 400, body: { error: { code: "WATCH_REQUEST_INVALID" } } });
    const filtered = await person.call("POST", `/console/api/webinars/${ticketCode}/watch/viewers/query`, {
      mode: "LIVE",
      sort: "FIRST_WATCHED_ASC",
      pageSize: 10,
      externalUserIds: ["known-B"],
    });
    expect(filtered.body.items.map((item: ViewerWatchRecord) => item.uid)).toEqual([uids.B]);
  });

  it("exportViewers: BOM, header, quoting and formula defusing, one row per detail-query record", async () => {
    await setUp();
    const response = await fetch(`${fixture.api.url}/console/api/webinars/${ticketCode}/watch/viewers.csv?mode=ALL`, {
      headers: { cookie: `webinar_console=${person.cookie}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${ticketCode}-ALL-viewers.csv"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1);
    expect(text).toContain('"Li, ""Wei"""');
    expect(text).toContain(`,"'=HYPERLINK(1)",`);
    expect(text).toContain(',"Wang; Fang",');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...VIEWER_CSV_COLUMNS]);
    expect(header).toEqual(expect.arrayContaining(["uid", "externalUserId", "totalWatchSeconds"]));
    const open = await fixture.merchant.client.queryViewerWatch({
      ticketCode,
      playbackMode: "ALL",
      sort: "FIRST_WATCHED_ASC",
      pageSize: 100,
    });
    expect(rows).toEqual(open.items.map((record) => VIEWER_CSV_COLUMNS.map((column) => exported(record[column]))));
  });

  it("exportViewers of many records matches the detail query page by page, across its chunks", async () => {
    const { api, merchant } = fixture;
    const code = (await person.call("POST", "/console/api/webinars", { title: "Bulk" })).body.webinar.ticketCode;
    const webinar = await api.server.services.db
      .selectFrom("webinars")
      .select("id")
      .where("ticket_code", "=", code)
      .executeTakeFirstOrThrow();
    await bulkSeedWatchData(api.server.services.db, {
      merchantId: merchant.merchantId,
      webinarId: webinar.id,
      count: 2345,
      uidBase: 2_000_000,
      externalPrefix: `bulk-${kind}-`,
    });
    const csv = await person.call("GET", `/console/api/webinars/${code}/watch/viewers.csv?mode=LIVE`);
    const [, ...rows] = parseCsv(csv.text.replace(/^\uFEFF/, ""));
    const records: ViewerWatchRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await merchant.client.queryViewerWatch({
        ticketCode: code,
        playbackMode: "LIVE",
        sort: "FIRST_WATCHED_ASC",
        pageSize: 100,
        ...(cursor === undefined ? {} : { cursor }),
      });
      records.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(records).toHaveLength(2345);
    expect(rows).toHaveLength(records.length);
    expect(rows).toEqual(records.map((record) => VIEWER_CSV_COLUMNS.map((column) => exported(record[column]))));
    // The export in chunks smaller than the records, and of exactly their number.
    for (const [chunkSize, chunks] of [
      [1000, 3],
      [2345, 1],
    ] as const) {
      const { first, stream } = await streamViewerWatch(
        api.server.services,
        merchant.merchantId,
        { ticketCode: code, playbackMode: "LIVE" },
        chunkSize,
      );
      const read: ViewerWatchRecord[][] = [];
      for (let chunk = first; chunk !== undefined; chunk = await stream.read()) read.push(chunk);
      expect(read).toHaveLength(chunks);
      expect(read.flat()).toEqual(records);
    }
    // Between chunks an export holds no connection: with its next chunk unread, other queries answer (on the
    // embedded database, its only connection), and a reader that stops early reads nothing more.
    const early = await streamViewerWatch(
      api.server.services,
      merchant.merchantId,
      { ticketCode: code, playbackMode: "LIVE" },
      1000,
    );
    expect(early.first).toHaveLength(1000);
    const meanwhile = await api.server.services.db
      .selectFrom("webinars")
      .select("id")
      .where("ticket_code", "=", code)
      .execute();
    expect(meanwhile).toHaveLength(1);
    early.stream.cancel();
    expect(await early.stream.read()).toBeUndefined();

    // Figures that change between chunks (replays watched during an export) move no record across the chunks:
    // each is read once, the ones not read yet with their new figures.
    const changing = await streamViewerWatch(
      api.server.services,
      merchant.merchantId,
      { ticketCode: code, playbackMode: "LIVE" },
      1000,
    );
    const streamed = [...changing.first!];
    const unread = records.at(-1)!;
    await api.server.services.db
      .updateTable("watch_subject_totals")
      .set({ total_seconds: 10_000_000, live_seconds: 10_000_000 })
      .where("webinar_id", "=", webinar.id)
      .where("scope", "=", "LIVE")
      .where("uid", "=", unread.uid)
      .execute();
    for (let chunk = await changing.stream.read(); chunk !== undefined; chunk = await changing.stream.read())
      streamed.push(...chunk);
    expect(streamed.map((record) => record.uid)).toEqual(records.map((record) => record.uid));
    expect(streamed.at(-1)).toMatchObject({ uid: unread.uid, totalWatchSeconds: 10_000_000 });
  });

  it("an ANALYST sees each phone masked to its first 3 and last 4 digits, in the viewers table and in the CSV", async () => {
    await setUp();
    const analyst = await signedInPerson(fixture.api, fixture.merchant.merchantId, "masked@example.com", "ANALYST");
    const body = { mode: "ALL", sort: "FIRST_WATCHED_ASC", pageSize: 100 };
    const path = `/console/api/webinars/${ticketCode}/watch/viewers/query`;
    const full = (await person.call("POST", path, body)).body.items as ViewerWatchRecord[];
    const masked = (await analyst.call("POST", path, body)).body.items as ViewerWatchRecord[];
    expect(full.map((record) => record.phone)).toEqual(["13800000005", "13800000006", "13800000007"]);
    expect(masked.map((record) => record.phone)).toEqual(["138****0005", "138****0006", "138****0007"]);
    expect(masked.map(({ phone: _phone, ...rest }) => rest)).toEqual(full.map(({ phone: _phone, ...rest }) => rest));
    const csv = await analyst.call("GET", `/console/api/webinars/${ticketCode}/watch/viewers.csv?mode=ALL`);
    const [header, ...rows] = parseCsv(csv.text.replace(/^\uFEFF/, ""));
    const phones = rows.map((row) => row[header!.indexOf("phone")]);
    expect(phones).toEqual(["138****0005", "138****0006", "138****0007"]);
    expect(csv.text).not.toContain("13800000005");
  });

  it("exports and charts run in the merchant's slots: with the only one taken, each answers 429 CONSOLE_BUSY with Retry-After", async () => {
    await setUp();
    const { api, merchant } = fixture;
    const charts = ["concurrency", "watch-time-distribution", "devices"];
    if (kind === "pglite") {
      // The embedded database answers a chart before another request can arrive, so the slot is taken here, in a
      // limiter of the app's kind handed to the operations themselves (over HTTP on PostgreSQL, below).
      const { createConcurrencyLimit } = await import("../src/http/concurrency-limit");
      const { consoleTable } = await import("../src/console/operations");
      const { findSession } = await import("../src/people/sessions");
      const limit = createConcurrencyLimit({
        running: 1,
        waiting: 0,
        refuse: () => new Error("CONSOLE_BUSY"),
      });
      const found = await findSession(
        { db: api.server.services.db, runtime: api.server.services.runtime, idleSeconds: 3600, maxSeconds: 3600 },
        person.cookie!,
        { device: "test", address: "127.0.0.1" },
      );
      const request = { services: api.server.services, heavyReads: limit } as never;
      const release = await limit.acquire(merchant.merchantId);
      const chart = consoleTable.getDeviceBreakdown.run(
        { request, params: { ticketCode }, query: { mode: "ALL" }, body: {} } as never,
        found!.person,
      );
      await expect(chart).rejects.toThrow("CONSOLE_BUSY");
      const exported = consoleTable.exportViewers.run(
        { request, params: { ticketCode }, query: { mode: "ALL" }, body: {} } as never,
        found!.person,
      );
      await expect(exported).rejects.toThrow("CONSOLE_BUSY");
      release();
      return;
    }
    // A chart whose query waits for a lock the test holds keeps the merchant's only slot.
    const client = new pg.Client({ connectionString: fixture.database.env.DATABASE_URL });
    await client.connect();
    await client.query("begin");
    await client.query("lock table playback_sessions in access exclusive mode");
    const waiting = person.call("GET", `/console/api/webinars/${ticketCode}/watch/devices?mode=ALL`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const path of [...charts.map((chart) => `watch/${chart}`), "watch/viewers.csv"]) {
      const busy = await person.call("GET", `/console/api/webinars/${ticketCode}/${path}?mode=ALL`);
      expect(busy.status, path).toBe(429);
      expect(busy.body.error, path).toMatchObject({ code: "CONSOLE_BUSY", details: { retryAfterSeconds: 2 } });
      expect(busy.headers.get("retry-after"), path).toBe("2");
    }
    expect((await person.call("GET", `/console/api/webinars/${ticketCode}/watch/overview?mode=ALL`)).status).toBe(200);
    await client.query("rollback");
    await client.end();
    expect((await waiting).status).toBe(200);
    for (const chart of charts)
      expect((await person.call("GET", `/console/api/webinars/${ticketCode}/watch/${chart}?mode=ALL`)).status).toBe(
        200,
      );
    expect((await person.call("GET", `/console/api/webinars/${ticketCode}/watch/viewers.csv?mode=ALL`)).status).toBe(
      200,
    );
  });

  it("LIVE export while the live runs is refused with the detail query's WATCH_DATA_NOT_FINAL, before any byte", async () => {
    const code = (await person.call("POST", "/console/api/webinars", { title: "Running" })).body.webinar.ticketCode;
    await person.call("POST", `/console/api/webinars/${code}/live`, { action: "START" });
    const answer = await person.call("GET", `/console/api/webinars/${code}/watch/viewers.csv?mode=LIVE`);
    expect(answer).toMatchObject({ status: 409, body: { error: { code: "WATCH_DATA_NOT_FINAL" } } });
  });
});
