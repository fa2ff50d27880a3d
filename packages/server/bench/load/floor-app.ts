/**
 * The floor: what no server of these operations can go below on this machine. node:http and the server's
 * database driver, answering the four Open API paths and the watch page's heartbeat with ONE statement each (the
 * operation's main statement, written against the server's schema, see floor-schema.ts) and a JSON reply:
 * `{requestId, data}` for the Open API, `{requestId, ...fields}` for the heartbeat as the watch page API answers.
 * No signature check, no session cookie, no validation, no logging.
 *
 * The heartbeat has two floors: one autocommit UPDATE per heartbeat at the server's path, and at
 * BATCHED_HEARTBEAT_FLOOR_PATH the heartbeats group-committed as the server commits them (the project's
 * createGroupCommit, the server's batch size and wait), one UPDATE of a batch's sessions each. The server batches,
 * so the second is the floor of what it does; the first is the floor of the request alone. Run as its own process
 * like the server:
 *
 *   PORT=… FLOOR_DATABASE=<PGlite data directory | postgres://…> FLOOR_EXISTING_VIEWERS=… FLOOR_WATCHED_VIEWERS=… \
 *     FLOOR_LIVE_VIEWERS=… node --import tsx floor-app.ts
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createGroupCommit, type GroupCommit } from "@org/webinar-internal/group-commit";
import { MAX_BATCH_SIZE, MAX_WAIT_MS } from "../../src/watch-data/heartbeat-batcher";
import { type FloorDatabase, openFloorDatabase } from "./floor-database";
import { createFloorSchema, FLOOR_MERCHANT_ID } from "./floor-schema";
import { BATCHED_HEARTBEAT_FLOOR_PATH, HEARTBEAT_PATH } from "./operations";

type Body = Record<string, unknown>;
type Handler = (floor: Floor, body: Body) => Promise<unknown>;

interface HeartbeatAnswer {
  watchSeconds: number;
  creditedSeconds: number;
}

/** The floor's database, and the group commit of its batched heartbeats (by playback id). */
interface Floor {
  db: FloorDatabase;
  batchedHeartbeat: GroupCommit<string, HeartbeatAnswer | undefined>;
}

const TICKET_TTL_MS = 60_000;
/** The heartbeat's credit cap: twice the watch page's 15 s interval. */
const HEARTBEAT_CAP_MS = 30_000;

// upsertViewer: the server's insert-or-return of a viewer by external id (nothing to change: no write).
const UPSERT = `
  with written as (
    insert into viewers (merchant_id, uid, external_user_id, created_at, updated_at)
    values ($1, nextval('new_viewer_uids'), $2, now(), now())
    on conflict (merchant_id, external_user_id) do nothing
    returning uid, external_user_id, phone, display_name, true as created
  )
  select * from written
  union all
  select uid, external_user_id, phone, display_name, false from viewers
  where merchant_id = $1 and external_user_id = $2 and not exists (select 1 from written)
`;

// issueLoginTicket: insert the ticket's hash for the webinar of the code, replacing the viewer's unused one.
const ISSUE_TICKET = `
  insert into login_tickets (ticket_hash, merchant_id, uid, webinar_id, state, issued_at, expires_at)
  select $1::text, $2::text, $3::integer, w.id, 'UNUSED', now(), $5::timestamptz from webinars w where w.ticket_code = $4 and w.merchant_id = $2
  on conflict (merchant_id, uid) where state = 'UNUSED'
  do update set ticket_hash = excluded.ticket_hash, webinar_id = excluded.webinar_id, issued_at = excluded.issued_at, expires_at = excluded.expires_at
  returning expires_at
`;

// getWatchOverview: the webinar's maintained counts.
const OVERVIEW = `
  select scope, kind, viewer_count, session_count, watch_seconds::float8 as watch_seconds, updated_at from watch_totals
  where webinar_id = (select id from webinars where ticket_code = $1 and merchant_id = $2)
`;

// queryViewerWatch: the first keyset page (pageSize + 1 rows) with the viewers' identity fields.
const DETAIL_PAGE = `
  select t.uid, t.live_seconds::float8 as live_seconds, t.replay_seconds::float8 as replay_seconds, t.total_seconds::float8 as total_seconds,
    t.session_count, t.first_watched_at, t.last_watched_at, t.device_types, t.protocols,
    (select v.external_user_id from viewers v where v.merchant_id = $2 and v.uid = t.uid) as external_user_id,
    (select v.phone from viewers v where v.merchant_id = $2 and v.uid = t.uid) as phone,
    (select v.display_name from viewers v where v.merchant_id = $2 and v.uid = t.uid) as display_name
  from watch_subject_totals t
  where t.webinar_id = (select id from webinars where ticket_code = $1 and merchant_id = $2) and t.scope = $3 and t.uid is not null
  order by t.total_seconds desc, t.uid asc
  limit $4
`;

// The watch page's heartbeat: credit an open session the time since its previous heartbeat, capped, in its row.
const HEARTBEAT = `
  update playback_sessions p set
    last_activity_at = now(),
    credited_ms = p.credited_ms + d.ms,
    watch_seconds = (p.credited_ms + d.ms) / 1000
  from (select least(greatest(extract(epoch from now() - last_activity_at) * 1000, 0), $2)::bigint as ms
        from playback_sessions where id = $1) d
  where p.id = $1 and p.ended_at is null
  returning p.watch_seconds, p.credited_ms / 1000 - (p.credited_ms - d.ms) / 1000 as credited_seconds
`;

// The batched heartbeat: the same credit, for every session of a batch in one statement.
const BATCHED_HEARTBEAT = `
  update playback_sessions p set
    last_activity_at = now(),
    credited_ms = p.credited_ms + d.ms,
    watch_seconds = (p.credited_ms + d.ms) / 1000
  from (select id, least(greatest(extract(epoch from now() - last_activity_at) * 1000, 0), $2)::bigint as ms
        from playback_sessions where id = any($1::text[])) d
  where p.id = d.id and p.ended_at is null
  returning p.id, p.watch_seconds, p.credited_ms / 1000 - (p.credited_ms - d.ms) / 1000 as credited_seconds
`;

/** Credits a batch of heartbeats by one statement; a session heartbeating twice in a batch is credited once. */
async function creditBatch(db: FloorDatabase, playbackIds: readonly string[]) {
  const rows = await db.query<{ id: string; watch_seconds: number; credited_seconds: string }>(BATCHED_HEARTBEAT, [
    [...new Set(playbackIds)],
    HEARTBEAT_CAP_MS,
  ]);
  const answers = new Map(
    rows.map((row) => [row.id, { watchSeconds: row.watch_seconds, creditedSeconds: Number(row.credited_seconds) }]),
  );
  return playbackIds.map((id) => answers.get(id));
}

function heartbeatReply(playbackId: unknown, answer: HeartbeatAnswer | undefined) {
  if (answer === undefined) throw new Error(`no open playback session ${String(playbackId)}`);
  return { playbackId, ...answer, ended: false };
}

interface TotalsRow {
  scope: string;
  kind: string;
  viewer_count: number;
  session_count: number;
  watch_seconds: number;
  updated_at: Date;
}

interface SubjectRow {
  uid: number;
  live_seconds: number;
  replay_seconds: number;
  total_seconds: number;
  session_count: number;
  first_watched_at: Date;
  last_watched_at: Date;
  device_types: string[];
  protocols: string[];
  external_user_id: string | null;
  phone: string | null;
  display_name: string | null;
}

function statsOf(rows: TotalsRow[], kind: string) {
  const row = rows.find((candidate) => candidate.kind === kind);
  return {
    viewerCount: row?.viewer_count ?? 0,
    sessionCount: row?.session_count ?? 0,
    watchSeconds: row?.watch_seconds ?? 0,
  };
}

const HANDLERS: Readonly<Record<string, Handler>> = {
  "/api/v1/open/viewers/upsert": async ({ db }, body) => {
    const [row] = await db.query<{
      uid: number;
      external_user_id: string;
      phone: string | null;
      display_name: string | null;
      created: boolean;
    }>(UPSERT, [FLOOR_MERCHANT_ID, body.externalUserId]);
    return {
      viewer: {
        uid: row!.uid,
        externalUserId: row!.external_user_id,
        phone: row!.phone,
        displayName: row!.display_name,
      },
      created: row!.created,
    };
  },
  "/api/v1/open/viewers/login-tickets": async ({ db }, body) => {
    const ticket = `lt_${randomBytes(32).toString("base64url")}`;
    const hash = createHash("sha256").update(ticket).digest("hex");
    const [row] = await db.query<{ expires_at: Date }>(ISSUE_TICKET, [
      hash,
      FLOOR_MERCHANT_ID,
      body.uid,
      body.ticketCode,
      new Date(Date.now() + TICKET_TTL_MS),
    ]);
    return {
      loginTicket: ticket,
      loginUrl: `http://127.0.0.1/w/${String(body.ticketCode)}#login_ticket=${ticket}`,
      expiresAt: row!.expires_at.toISOString(),
    };
  },
  "/api/v1/open/watch-data/overview": async ({ db }, body) => {
    const rows = (await db.query<TotalsRow>(OVERVIEW, [body.ticketCode, FLOOR_MERCHANT_ID])).filter(
      (row) => row.scope === body.playbackMode,
    );
    const registered = statsOf(rows, "REGISTERED");
    const anonymous = statsOf(rows, "ANONYMOUS");
    const all = {
      viewerCount: registered.viewerCount + anonymous.viewerCount,
      sessionCount: registered.sessionCount + anonymous.sessionCount,
      watchSeconds: registered.watchSeconds + anonymous.watchSeconds,
    };
    return {
      ticketCode: body.ticketCode,
      dataState: "FINAL",
      all,
      registered,
      anonymous,
      liveWatchSeconds: all.watchSeconds,
      replayWatchSeconds: 0,
    };
  },
  "/api/v1/open/watch-data/viewers/query": async ({ db }, body) => {
    const pageSize = Number(body.pageSize);
    const rows = await db.query<SubjectRow>(DETAIL_PAGE, [
      body.ticketCode,
      FLOOR_MERCHANT_ID,
      body.playbackMode,
      pageSize + 1,
    ]);
    const items = rows.slice(0, pageSize).map((row) => ({
      uid: row.uid,
      ...(row.external_user_id === null ? {} : { externalUserId: row.external_user_id }),
      totalWatchSeconds: row.total_seconds,
      liveWatchSeconds: row.live_seconds,
      replayWatchSeconds: row.replay_seconds,
      sessionCount: row.session_count,
      firstWatchedAt: row.first_watched_at.toISOString(),
      lastWatchedAt: row.last_watched_at.toISOString(),
      deviceTypes: row.device_types,
      protocols: row.protocols,
    }));
    return rows.length > pageSize ? { items, nextCursor: `after-${items.at(-1)!.uid}` } : { items };
  },
};

/** Paths answered `{requestId, ...fields}`, as the watch page API answers. */
const INLINE_HANDLERS: Readonly<Record<string, Handler>> = {
  [HEARTBEAT_PATH]: async ({ db }, body) => {
    const [row] = await db.query<{ watch_seconds: number; credited_seconds: string }>(HEARTBEAT, [
      body.playbackId,
      HEARTBEAT_CAP_MS,
    ]);
    return heartbeatReply(
      body.playbackId,
      row && { watchSeconds: row.watch_seconds, creditedSeconds: Number(row.credited_seconds) },
    );
  },
  [BATCHED_HEARTBEAT_FLOOR_PATH]: async ({ batchedHeartbeat }, body) =>
    heartbeatReply(body.playbackId, await batchedHeartbeat(String(body.playbackId))),
};

let requestCount = 0;

function reply(res: ServerResponse, status: number, payload: object): void {
  const text = JSON.stringify({ requestId: `req_floor_${(requestCount += 1)}`, ...payload });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}

function handle(floor: Floor, req: IncomingMessage, res: ServerResponse): void {
  if (req.method === "GET" && req.url === "/healthz") {
    reply(res, 200, { status: "ok" });
    return;
  }
  const path = req.url ?? "";
  const inline = INLINE_HANDLERS[path];
  const handler = req.method === "POST" ? (inline ?? HANDLERS[path]) : undefined;
  if (handler === undefined) {
    reply(res, 404, { error: { code: "REQUEST_INVALID", message: "no such floor path" } });
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    // Parsed inside the promise, so a bad body is a 500 answer, not a crash of the floor.
    Promise.resolve(chunks)
      .then((body) => handler(floor, JSON.parse(Buffer.concat(body).toString("utf8")) as Body))
      .then(
        (data) => reply(res, 200, inline === undefined ? { data } : (data as object)),
        (error: unknown) => {
          process.stderr.write(`floor: ${req.url}: ${error instanceof Error ? error.message : String(error)}\n`);
          reply(res, 500, { error: { code: "INTERNAL_ERROR", message: "floor statement failed" } });
        },
      );
  });
}

const db = await openFloorDatabase(process.env.FLOOR_DATABASE!, process.env);
await createFloorSchema(db, {
  existingViewers: Number(process.env.FLOOR_EXISTING_VIEWERS),
  watchedViewers: Number(process.env.FLOOR_WATCHED_VIEWERS),
  liveViewers: Number(process.env.FLOOR_LIVE_VIEWERS ?? 0),
});
const batchedHeartbeat = createGroupCommit((ids: readonly string[]) => creditBatch(db, ids), {
  maxBatchSize: MAX_BATCH_SIZE,
  maxWaitMs: MAX_WAIT_MS,
});
const server = createServer((req, res) => handle({ db, batchedHeartbeat }, req, res));
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void db.close().then(() => process.exit(0));
});
