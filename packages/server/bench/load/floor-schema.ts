/**
 * The floor's tables: the server's tables that the measured operations touch, with the same columns, keys,
 * constraints and indexes as packages/server/src/db/migrations.ts, so each floor statement pays the same index
 * and constraint upkeep as the server's. A copy, not an import: the floor is a fixed yardstick for every build
 * the bench measures, whatever that build's code looks like. Seeded in SQL with the sizes of the server's fixture.
 */
import type { FloorDatabase } from "./floor-database";

export const FLOOR_MERCHANT_ID = "mch_floor";
export const FLOOR_TICKET_CODE = "floor-tickets";
export const FLOOR_WATCH_TICKET_CODE = "floor-watch";
export const FLOOR_LIVE_TICKET_CODE = "floor-live";
/** Existing viewer `index` has uid FIRST_UID + index; new viewers take uids above NEW_UIDS_START. */
export const FIRST_UID = 10000;
/** Live viewer `index` (the heartbeats' viewers) has uid FIRST_LIVE_UID + index. */
const FIRST_LIVE_UID = 1_000_000;
const NEW_UIDS_START = 5_000_000;

/** The open LIVE playback session of live viewer `index`, in the server's id shape (`pb_` and 22 letters or digits). */
export const floorPlaybackId = (index: number): string => `pb_floor${String(index).padStart(17, "0")}`;

const SCHEMA = `
  create table merchants (
    id text primary key,
    name text not null,
    watch_origin text,
    status text not null default 'ACTIVE' check (status in ('ACTIVE', 'SUSPENDED')),
    created_at timestamptz not null
  );
  create table webinars (
    id text primary key,
    merchant_id text not null references merchants (id),
    ticket_code text not null,
    title text,
    status text not null check (status in ('DRAFT', 'PUBLISHED', 'HIDDEN', 'SUSPENDED')),
    created_at timestamptz not null,
    constraint webinars_ticket_code_key unique (ticket_code)
  );
  create table viewers (
    merchant_id text not null references merchants (id),
    uid integer not null check (uid between 10000 and 9999999),
    external_user_id text,
    phone text,
    display_name text,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    primary key (merchant_id, uid),
    constraint viewers_merchant_external_user_id_key unique (merchant_id, external_user_id),
    constraint viewers_merchant_phone_key unique (merchant_id, phone)
  );
  -- The server draws random uids and retries a collision; a sequence gives the floor unique ones in one statement.
  create sequence new_viewer_uids start ${NEW_UIDS_START};
  create table login_tickets (
    ticket_hash text primary key,
    merchant_id text not null,
    uid integer not null,
    webinar_id text not null references webinars (id),
    state text not null check (state in ('UNUSED', 'CONSUMED', 'SUPERSEDED')),
    issued_at timestamptz not null,
    expires_at timestamptz not null,
    consumed_at timestamptz,
    foreign key (merchant_id, uid) references viewers (merchant_id, uid)
  );
  create unique index login_tickets_one_unused_per_viewer on login_tickets (merchant_id, uid) where state = 'UNUSED';
  create index login_tickets_expires_at on login_tickets (expires_at);
  create table watch_subject_totals (
    webinar_id text not null references webinars (id),
    scope text not null check (scope in ('LIVE', 'REPLAY', 'ALL')),
    subject_key text not null,
    uid integer,
    live_seconds bigint not null,
    replay_seconds bigint not null,
    total_seconds bigint not null,
    session_count integer not null,
    first_watched_at timestamptz not null,
    last_watched_at timestamptz not null,
    device_types text[] not null,
    protocols text[] not null,
    credited_until timestamptz,
    primary key (webinar_id, scope, subject_key)
  );
  create index watch_subject_totals_by_seconds on watch_subject_totals (webinar_id, scope, total_seconds desc, uid) where uid is not null;
  create index watch_subject_totals_by_last on watch_subject_totals (webinar_id, scope, last_watched_at desc, uid) where uid is not null;
  create index watch_subject_totals_by_first on watch_subject_totals (webinar_id, scope, first_watched_at, uid) where uid is not null;
  create table playback_sessions (
    id text primary key,
    webinar_id text not null references webinars (id),
    merchant_id text not null,
    uid integer,
    anonymous_id text,
    mode text not null check (mode in ('LIVE', 'REPLAY')),
    watch_seconds integer not null check (watch_seconds >= 0),
    device_type text not null,
    protocol text,
    started_at timestamptz not null,
    recorded_at timestamptz not null,
    last_activity_at timestamptz not null,
    ended_at timestamptz,
    credited_ms bigint not null default 0,
    check ((uid is null) <> (anonymous_id is null)),
    foreign key (merchant_id, uid) references viewers (merchant_id, uid)
  );
  create index playback_sessions_webinar on playback_sessions (webinar_id, mode);
  create index playback_sessions_open on playback_sessions (webinar_id, mode) where ended_at is null;
  create table watch_totals (
    webinar_id text not null references webinars (id),
    scope text not null check (scope in ('LIVE', 'REPLAY', 'ALL')),
    kind text not null check (kind in ('REGISTERED', 'ANONYMOUS')),
    viewer_count integer not null,
    session_count integer not null,
    watch_seconds bigint not null,
    updated_at timestamptz not null,
    primary key (webinar_id, scope, kind)
  );
`;

/**
 * The same data as the server's fixture: `existingViewers` viewers, of which the first `watchedViewers` watched
 * the live (60 + (i·37 mod 3600) s) and every second one also the replay (30 + (i·53 mod 1800) s), plus 20
 * anonymous live subjects; per-subject rows for LIVE, REPLAY and ALL and the six per-webinar counts. And the
 * live webinar's `liveViewers` viewers, each with an open LIVE playback session.
 */
function seed(existingViewers: number, watchedViewers: number, liveViewers: number): string {
  return `
    insert into merchants (id, name, created_at) values ('${FLOOR_MERCHANT_ID}', 'Floor', now());
    insert into webinars (id, merchant_id, ticket_code, status, created_at) values
      ('wbn_floor_tickets', '${FLOOR_MERCHANT_ID}', '${FLOOR_TICKET_CODE}', 'PUBLISHED', now()),
      ('wbn_floor_watch', '${FLOOR_MERCHANT_ID}', '${FLOOR_WATCH_TICKET_CODE}', 'PUBLISHED', now()),
      ('wbn_floor_live', '${FLOOR_MERCHANT_ID}', '${FLOOR_LIVE_TICKET_CODE}', 'PUBLISHED', now());
    insert into viewers (merchant_id, uid, external_user_id, created_at, updated_at)
      select '${FLOOR_MERCHANT_ID}', ${FIRST_UID} + i, 'existing-' || i, now(), now() from generate_series(0, ${existingViewers - 1}) as i;
    create temporary table watched as
      select 'u:' || (${FIRST_UID} + i) as subject_key, ${FIRST_UID} + i as uid, 60 + (i * 37) % 3600 as live,
        case when i % 2 = 0 then 30 + (i * 53) % 1800 else 0 end as replay,
        (array['DESKTOP', 'MOBILE', 'TABLET'])[i % 3 + 1] as device, (array['WEBRTC', 'HLS'])[i % 2 + 1] as protocol
      from generate_series(0, ${watchedViewers - 1}) as i
      union all
      select 'a:anonymous-' || i, null, 120, 0, 'UNKNOWN', null from generate_series(0, 19) as i;
    insert into watch_subject_totals
      select 'wbn_floor_watch', scope.name, subject_key, uid,
        case when scope.name = 'REPLAY' then 0 else live end, case when scope.name = 'LIVE' then 0 else replay end,
        case scope.name when 'LIVE' then live when 'REPLAY' then replay else live + replay end,
        case scope.name when 'ALL' then 1 + (replay > 0)::int else 1 end,
        now() - interval '2 hours', now() - interval '1 hour', array[device],
        case when protocol is null then '{}'::text[] else array[protocol] end, null
      from watched cross join (values ('LIVE'), ('REPLAY'), ('ALL')) as scope (name)
      where scope.name <> 'REPLAY' or replay > 0;
    insert into watch_totals
      select webinar_id, scope, case when uid is null then 'ANONYMOUS' else 'REGISTERED' end, count(*), sum(session_count), sum(total_seconds), now()
      from watch_subject_totals group by webinar_id, scope, uid is null;
    drop table watched;
    insert into viewers (merchant_id, uid, external_user_id, created_at, updated_at)
      select '${FLOOR_MERCHANT_ID}', ${FIRST_LIVE_UID} + i, 'live-' || i, now(), now() from generate_series(0, ${liveViewers - 1}) as i;
    insert into playback_sessions (id, webinar_id, merchant_id, uid, mode, watch_seconds, device_type, protocol,
        started_at, recorded_at, last_activity_at)
      select 'pb_floor' || lpad(i::text, 17, '0'), 'wbn_floor_live', '${FLOOR_MERCHANT_ID}', ${FIRST_LIVE_UID} + i, 'LIVE', 0,
        'DESKTOP', 'HLS', now(), now(), now()
      from generate_series(0, ${liveViewers - 1}) as i;
  `;
}

export async function createFloorSchema(
  db: FloorDatabase,
  sizes: { existingViewers: number; watchedViewers: number; liveViewers: number },
): Promise<void> {
  await db.exec(SCHEMA);
  await db.exec(seed(sizes.existingViewers, sizes.watchedViewers, sizes.liveViewers));
}
