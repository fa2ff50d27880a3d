/**
 * Versioned schema migrations, kept in code so the built server carries them, run at start by Kysely's
 * Migrator (which holds an advisory lock on PostgreSQL, so processes starting together migrate once).
 * A released migration is never edited; a change is a new entry. So a migration imports nothing that could change
 * under it: values it shares with the spec (the UID range) or a package (the nonce table) are written out, and
 * test/migrations.test.ts checks that they still agree.
 *
 * Every invariant the spec states is also a constraint here, so concurrency cannot break it:
 * one viewer per (merchant, externalUserId), one per (merchant, phone), one unused ticket per viewer, one use
 * per nonce.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";

/** The first schema's merchants, their API keys and webinars (tables, then their indexes). */
const initialMerchantTables = () => [
  sql`
        create table merchants (
          id text primary key,
          name text not null,
          watch_origin text,
          status text not null default 'ACTIVE' check (status in ('ACTIVE', 'SUSPENDED')),
          created_at timestamptz not null
        )
      `,
  sql`
        create table api_keys (
          api_key text primary key,
          merchant_id text not null references merchants (id),
          secret_sealed text not null,
          status text not null default 'ACTIVE' check (status in ('ACTIVE', 'REVOKED')),
          created_at timestamptz not null,
          revoked_at timestamptz
        )
      `,
  sql`
        create index api_keys_merchant_id on api_keys (merchant_id)
      `,
  sql`
        create table webinars (
          id text primary key,
          merchant_id text not null references merchants (id),
          ticket_code text not null,
          title text,
          status text not null check (status in ('DRAFT', 'PUBLISHED', 'HIDDEN', 'SUSPENDED')),
          live_status text not null default 'NOT_STARTED'
            check (live_status in ('NOT_STARTED', 'LIVE', 'ENDED', 'CANCELLED', 'FAILED')),
          live_started_at timestamptz,
          live_ended_at timestamptz,
          live_finalized_at timestamptz,
          created_at timestamptz not null,
          constraint webinars_ticket_code_key unique (ticket_code)
        )
      `,
  sql`
        create index webinars_merchant_id on webinars (merchant_id)
      `,
  sql`
        create table webinar_live_events (
          id text primary key,
          webinar_id text not null references webinars (id),
          action text not null check (action in ('START', 'END', 'CANCEL', 'FAIL')),
          live_status text not null,
          occurred_at timestamptz not null
        )
      `,
  sql`
        create index webinar_live_events_webinar_id on webinar_live_events (webinar_id, occurred_at)
      `,
];

/** The first schema's viewers, their tickets, sessions and playback, the nonces and the server's own rows. */
const initialViewerTables = () => [
  sql`
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
        )
      `,
  sql`
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
        )
      `,
  sql`
        create unique index login_tickets_one_unused_per_viewer on login_tickets (merchant_id, uid) where state = 'UNUSED'
      `,
  sql`
        create index login_tickets_expires_at on login_tickets (expires_at)
      `,
  sql`
        create table watch_sessions (
          session_hash text primary key,
          merchant_id text not null,
          uid integer not null,
          webinar_id text not null references webinars (id),
          created_at timestamptz not null,
          expires_at timestamptz not null,
          foreign key (merchant_id, uid) references viewers (merchant_id, uid)
        )
      `,
  sql`
        create index watch_sessions_expires_at on watch_sessions (expires_at)
      `,
  sql`
        create table open_api_nonces (
          api_key text not null,
          nonce text not null,
          expires_at timestamptz not null,
          primary key (api_key, nonce)
        )
      `,
  sql`
        create index open_api_nonces_expires_at on open_api_nonces (expires_at)
      `,
  sql`
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
          check ((uid is null) <> (anonymous_id is null)),
          foreign key (merchant_id, uid) references viewers (merchant_id, uid)
        )
      `,
  sql`
        create index playback_sessions_webinar on playback_sessions (webinar_id, mode)
      `,
  sql`
        create table moderation_blocked_terms (
          term text primary key,
          position integer not null
        )
      `,
  sql`
        create table server_meta (
          key text primary key,
          value text not null,
          updated_at timestamptz not null default now()
        )
      `,
];

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    // One statement per call: PGlite runs parameterised queries through the extended protocol (one command each).
    for (const statement of [...initialMerchantTables(), ...initialViewerTables()]) await statement.execute(db);
  },
};

/**
 * Issuing a login ticket in one round trip and one transaction (the login ticket lifecycle of operation
 * issueLoginTicket): lock the viewer row, supersede its unused ticket, insert the new one. In a plpgsql (volatile)
 * function each statement takes a fresh snapshot under READ COMMITTED, so a call that waited for the viewer lock sees,
 * and supersedes, the ticket the previous holder committed; the partial unique index stays the last word on "one unused
 * ticket per viewer". Returns false when the merchant has no such viewer.
 */
const issueTicketFunction: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create function issue_login_ticket(
        p_merchant_id text, p_uid integer, p_ticket_hash text, p_webinar_id text, p_issued_at timestamptz, p_expires_at timestamptz
      ) returns boolean language plpgsql volatile as $$
      begin
        perform 1 from viewers where merchant_id = p_merchant_id and uid = p_uid for no key update;
        if not found then
          return false;
        end if;
        update login_tickets set state = 'SUPERSEDED'
          where merchant_id = p_merchant_id and uid = p_uid and state = 'UNUSED';
        insert into login_tickets (ticket_hash, merchant_id, uid, webinar_id, state, issued_at, expires_at)
          values (p_ticket_hash, p_merchant_id, p_uid, p_webinar_id, 'UNUSED', p_issued_at, p_expires_at);
        return true;
      end
      $$
    `.execute(db);
  },
};

/**
 * Watch statistics maintained incrementally (aggregates are never scanned): per subject and scope
 * (LIVE, REPLAY, ALL) one row of totals, and per webinar, scope and kind (REGISTERED, ANONYMOUS) one row of
 * counts; every imported playback session updates both in its transaction. Sessions recorded before this
 * migration are summed once here.
 */
const watchTotals: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      sql`
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
          primary key (webinar_id, scope, subject_key)
        )
      `,
      sql`create index watch_subject_totals_by_seconds on watch_subject_totals (webinar_id, scope, total_seconds desc, uid) where uid is not null`,
      sql`create index watch_subject_totals_by_last on watch_subject_totals (webinar_id, scope, last_watched_at desc, uid) where uid is not null`,
      sql`create index watch_subject_totals_by_first on watch_subject_totals (webinar_id, scope, first_watched_at, uid) where uid is not null`,
      sql`
        create table watch_totals (
          webinar_id text not null references webinars (id),
          scope text not null check (scope in ('LIVE', 'REPLAY', 'ALL')),
          kind text not null check (kind in ('REGISTERED', 'ANONYMOUS')),
          viewer_count integer not null,
          session_count integer not null,
          watch_seconds bigint not null,
          updated_at timestamptz not null,
          primary key (webinar_id, scope, kind)
        )
      `,
      sql`
        insert into watch_subject_totals
        select p.webinar_id, s.scope, coalesce('u:' || p.uid, 'a:' || p.anonymous_id), p.uid,
          sum(case when p.mode = 'LIVE' then p.watch_seconds else 0 end),
          sum(case when p.mode = 'REPLAY' then p.watch_seconds else 0 end),
          sum(p.watch_seconds), count(*), min(p.started_at), max(p.started_at + p.watch_seconds * interval '1 second'),
          array(select distinct d from unnest(array_agg(p.device_type)) d order by d),
          array(select distinct x from unnest(array_agg(p.protocol)) x where x is not null order by x)
        from playback_sessions p
        cross join lateral (values (p.mode), ('ALL')) as s (scope)
        group by p.webinar_id, s.scope, p.uid, p.anonymous_id
      `,
      sql`
        insert into watch_totals
        select webinar_id, scope, case when uid is null then 'ANONYMOUS' else 'REGISTERED' end,
          count(*), sum(session_count), sum(total_seconds), now()
        from watch_subject_totals
        group by webinar_id, scope, uid is null
      `,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * Live finalization as database state (a restart resumes it; several processes finalize once) and the watch-page
 * playback API's open sessions:
 * - `webinars.live_finalize_due_at`: set when the live ends, is cancelled or fails (now + grace); the finalizer
 *   claims due rows with `FOR UPDATE SKIP LOCKED`, closes the open LIVE sessions and sets `live_finalized_at`.
 * - `playback_sessions.last_activity_at / ended_at / credited_ms`: an open session (ended_at null) is credited by
 *   heartbeats; `credited_ms` keeps the sub-second remainder so whole seconds are never lost to rounding.
 * - a FINALIZE live event records each finalization once (the two-process test counts them).
 * - keyset bounds: the detail query's indexes exist since 0003 (webinar, scope, sort column, uid); here the open-
 *   session and due-finalization lookups get theirs.
 */
const liveFinalization: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      sql`alter table webinars add column live_finalize_due_at timestamptz`,
      sql`update webinars set live_finalize_due_at = coalesce(live_ended_at, now()) + interval '120 seconds'
            where live_status in ('ENDED', 'CANCELLED', 'FAILED') and live_finalized_at is null`,
      sql`create index webinars_finalize_due on webinars (live_finalize_due_at) where live_finalized_at is null and live_finalize_due_at is not null`,
      sql`alter table playback_sessions add column last_activity_at timestamptz`,
      sql`alter table playback_sessions add column ended_at timestamptz`,
      sql`alter table playback_sessions add column credited_ms bigint not null default 0`,
      sql`update playback_sessions set last_activity_at = started_at + watch_seconds * interval '1 second',
            ended_at = started_at + watch_seconds * interval '1 second', credited_ms = watch_seconds::bigint * 1000`,
      sql`alter table playback_sessions alter column last_activity_at set not null`,
      sql`create index playback_sessions_open on playback_sessions (webinar_id, mode) where ended_at is null`,
      sql`alter table webinar_live_events drop constraint webinar_live_events_action_check`,
      sql`alter table webinar_live_events add constraint webinar_live_events_action_check check (action in ('START', 'END', 'CANCEL', 'FAIL', 'FINALIZE'))`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * One subject, one clock: a viewer playing in two tabs (or two devices) at once earns the wall-clock time once.
 * `watch_subject_totals.credited_until` is the end of the latest time credited to the subject by heartbeats in
 * the row's mode (rows of scope LIVE and REPLAY; ALL rows leave it null); a heartbeat credits only the part of
 * its interval after it. Null: no heartbeat has credited the subject yet (imported sessions never set it).
 */
const subjectCreditWatermark: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table watch_subject_totals add column credited_until timestamptz`.execute(db);
  },
};

/**
 * The webinar's video sources for the watch page: the live source and the replay source (absolute http(s) URLs,
 * null when not set; the page then plays the sample video shipped with the server).
 */
const webinarVideoUrls: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table webinars add column live_video_url text`.execute(db);
    await sql`alter table webinars add column replay_video_url text`.execute(db);
  },
};

/**
 * Used nonces move to the table layout of @org/webinar-validator's PostgreSQL nonce store (its
 * `postgresNonceStoreSchema("open_api_nonces")`, written out here so this migration never changes with that
 * package). Nonces in flight are dropped: a request signed before the upgrade is at most one retry.
 */
const validatorNonceStore: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`drop table open_api_nonces`.execute(db);
    await sql`
      create table open_api_nonces (
        api_key text not null,
        nonce text not null,
        expires_at_ms bigint not null,
        primary key (api_key, nonce)
      )
    `.execute(db);
    await sql`create index open_api_nonces_expires_idx on open_api_nonces (expires_at_ms)`.execute(db);
  },
};

/**
 * The merchant console: its people (one merchant each, an email unique without regard to case), their invites and
 * sessions (only SHA-256 hashes of the tokens are stored), failed sign-ins for throttling, the audit list of
 * changes, and the request log of the Open API (rows of a merchant's own keys; retention bounded by a periodic
 * prune). API keys gain the minute they were last used and, once rolled, the time they stop working.
 */
const merchantConsole: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      sql`alter table api_keys add column last_used_at timestamptz`,
      sql`alter table api_keys add column revokes_at timestamptz`,
      sql`
        create table console_users (
          id text primary key,
          merchant_id text not null references merchants (id),
          email text not null,
          role text not null check (role in ('OWNER', 'ANALYST')),
          password_hash text,
          language text check (language in ('en', 'zh-CN')),
          created_at timestamptz not null
        )
      `,
      sql`create unique index console_users_email_key on console_users (lower(email))`,
      sql`
        create table console_invites (
          token_hash text primary key,
          user_id text not null references console_users (id),
          role text not null check (role in ('OWNER', 'ANALYST')),
          created_at timestamptz not null,
          expires_at timestamptz not null,
          used_at timestamptz
        )
      `,
      sql`create index console_invites_user on console_invites (user_id)`,
      sql`
        create table console_sessions (
          token_hash text primary key,
          user_id text not null references console_users (id),
          created_at timestamptz not null,
          expires_at timestamptz not null,
          absolute_expires_at timestamptz not null
        )
      `,
      sql`create index console_sessions_user on console_sessions (user_id)`,
      sql`
        create table console_sign_in_failures (
          subject text not null,
          failed_at timestamptz not null
        )
      `,
      sql`create index console_sign_in_failures_subject on console_sign_in_failures (subject, failed_at)`,
      sql`
        create table console_audit_events (
          id bigint generated always as identity primary key,
          merchant_id text not null references merchants (id),
          actor_user_id text references console_users (id),
          action text not null,
          target text not null,
          details jsonb not null,
          occurred_at timestamptz not null
        )
      `,
      sql`create index console_audit_events_merchant on console_audit_events (merchant_id, id desc)`,
      sql`
        create table open_api_request_log (
          id bigint generated always as identity primary key,
          merchant_id text not null references merchants (id),
          request_id text not null,
          answered_at timestamptz not null,
          api_key text not null,
          operation_id text,
          method text not null,
          path text not null,
          status integer not null,
          error_code text,
          duration_ms integer not null,
          canonical_string text
        )
      `,
      sql`create index open_api_request_log_merchant on open_api_request_log (merchant_id, id desc)`,
      sql`create index open_api_request_log_request on open_api_request_log (merchant_id, request_id)`,
      sql`create index open_api_request_log_answered on open_api_request_log (answered_at)`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * A watch subject's key and kind, defined once, here: the key of its totals rows is `u:<uid>` for a registered
 * viewer and `a:<anonymousId>` for an anonymous one (as 0003 wrote them), its kind REGISTERED or ANONYMOUS. Every
 * statement that writes or locks those rows asks these functions, and the code reads the key back from them.
 *
 * And the locks of a heartbeat batch, taken in the global order of watch-data/heartbeat-credits.ts by statements
 * that run one after another: the sessions by id, then the subject totals rows of the open ones by webinar and
 * subject (a mode's row before ALL's), then the webinar totals rows by webinar (the mode rows before ALL's); it
 * returns the sessions with their subjects, their webinars' live columns and how far each subject was credited in
 * the session's mode. One round trip per batch, and the order is the order of the statements, not a plan's.
 */
const subjectKeyAndBatchLocks: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create function watch_subject_key(uid integer, anonymous_id text) returns text
      language sql immutable parallel safe
      as $$ select coalesce('u:' || uid, 'a:' || anonymous_id) $$
    `.execute(db);
    await sql`
      create function watch_subject_kind(uid integer) returns text
      language sql immutable parallel safe
      as $$ select case when uid is null then 'ANONYMOUS' else 'REGISTERED' end $$
    `.execute(db);
    await sql`
      create function lock_heartbeat_batch(session_ids text[])
      returns table (
        id text, webinar_id text, uid integer, anonymous_id text, mode text, subject_key text, kind text,
        last_activity_at timestamptz, ended_at timestamptz, credited_ms float8, live_status text,
        live_started_at timestamptz, live_ended_at timestamptz, live_finalized_at timestamptz,
        credited_until timestamptz
      )
      language plpgsql
      as $$
      #variable_conflict use_column
      begin
        perform 1 from playback_sessions as s where s.id = any(session_ids) order by s.id for update;

        perform 1
        from watch_subject_totals as t
        join (
          select distinct s.webinar_id, watch_subject_key(s.uid, s.anonymous_id) as subject_key, scope
          from playback_sessions as s, unnest(array[s.mode, 'ALL']) as scope
          where s.id = any(session_ids) and s.ended_at is null
        ) as k on t.webinar_id = k.webinar_id and t.scope = k.scope and t.subject_key = k.subject_key
        order by t.webinar_id, t.subject_key, t.scope = 'ALL', t.scope
        for update of t;

        perform 1
        from watch_totals as w
        join (
          select distinct s.webinar_id, watch_subject_kind(s.uid) as kind, scope
          from playback_sessions as s, unnest(array[s.mode, 'ALL']) as scope
          where s.id = any(session_ids) and s.ended_at is null
        ) as k on w.webinar_id = k.webinar_id and w.scope = k.scope and w.kind = k.kind
        order by w.webinar_id, w.scope = 'ALL', w.scope, w.kind
        for update of w;

        return query
        select s.id, s.webinar_id, s.uid, s.anonymous_id, s.mode, watch_subject_key(s.uid, s.anonymous_id),
          watch_subject_kind(s.uid), s.last_activity_at, s.ended_at, s.credited_ms::float8, w.live_status,
          w.live_started_at, w.live_ended_at, w.live_finalized_at, t.credited_until
        from playback_sessions as s
        join webinars as w on w.id = s.webinar_id
        left join watch_subject_totals as t
          on t.webinar_id = s.webinar_id and t.scope = s.mode
          and t.subject_key = watch_subject_key(s.uid, s.anonymous_id)
        where s.id = any(session_ids);
      end
      $$
    `.execute(db);
  },
};

/**
 * The batch locks of 0020 read each session by its id once. 0020's function looked its sessions up again in the
 * statements that lock the totals rows, filtered to the open ones; with that filter the database could pick the
 * index of open sessions and test every open session of the server against the batch's ids (milliseconds per batch
 * with a few thousand viewers, growing with them). Here the first statement locks the sessions by primary key and
 * keeps them, and the later statements read the kept rows, so the lock order and the answer are unchanged.
 */
const batchLocksReadSessionsOnce: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create or replace function lock_heartbeat_batch(session_ids text[])
      returns table (
        id text, webinar_id text, uid integer, anonymous_id text, mode text, subject_key text, kind text,
        last_activity_at timestamptz, ended_at timestamptz, credited_ms float8, live_status text,
        live_started_at timestamptz, live_ended_at timestamptz, live_finalized_at timestamptz,
        credited_until timestamptz
      )
      language plpgsql
      as $$
      #variable_conflict use_column
      declare
        locked playback_sessions[];
      begin
        select array_agg(s order by s.id) into locked
        from (select * from playback_sessions as s where s.id = any(session_ids) order by s.id for update) as s;

        perform 1
        from watch_subject_totals as t
        join (
          select distinct s.webinar_id, watch_subject_key(s.uid, s.anonymous_id) as subject_key, scope
          from unnest(locked) as s, unnest(array[s.mode, 'ALL']) as scope
          where s.ended_at is null
        ) as k on t.webinar_id = k.webinar_id and t.scope = k.scope and t.subject_key = k.subject_key
        order by t.webinar_id, t.subject_key, t.scope = 'ALL', t.scope
        for update of t;

        perform 1
        from watch_totals as w
        join (
          select distinct s.webinar_id, watch_subject_kind(s.uid) as kind, scope
          from unnest(locked) as s, unnest(array[s.mode, 'ALL']) as scope
          where s.ended_at is null
        ) as k on w.webinar_id = k.webinar_id and w.scope = k.scope and w.kind = k.kind
        order by w.webinar_id, w.scope = 'ALL', w.scope, w.kind
        for update of w;

        return query
        select s.id, s.webinar_id, s.uid, s.anonymous_id, s.mode, watch_subject_key(s.uid, s.anonymous_id),
          watch_subject_kind(s.uid), s.last_activity_at, s.ended_at, s.credited_ms::float8, w.live_status,
          w.live_started_at, w.live_ended_at, w.live_finalized_at, t.credited_until
        from unnest(locked) as s
        join webinars as w on w.id = s.webinar_id
        left join watch_subject_totals as t
          on t.webinar_id = s.webinar_id and t.scope = s.mode
          and t.subject_key = watch_subject_key(s.uid, s.anonymous_id);
      end
      $$
    `.execute(db);
  },
};

/**
 * The console's team and its sign-in security. People are removed, not deleted (the audit list keeps naming them):
 * `removed_at`, and an email is unique among the people not removed, so a removed person's email can be invited
 * again, as a new person. Two-step sign-in: each person's TOTP secret, sealed like API-key secrets (the one being
 * enrolled apart from the one in use), the last time step a code was accepted for (no code is accepted twice),
 * their recovery codes (SHA-256 only), and whether the merchant requires it of everyone. Sessions get a public id
 * (listing and ending them never shows a token or its hash), the device and address they were last used from, when
 * they were last used, and when their person last entered the password (sensitive changes need it recent).
 * Sign-in attempts are counted in one row per subject (email and address, address, email) with the start of its
 * window, so counting an attempt is one locked upsert rather than a count of rows.
 */
const consoleTeamSecurity: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      sql`alter table console_users add column removed_at timestamptz`,
      sql`drop index console_users_email_key`,
      sql`create unique index console_users_member_email_key on console_users (lower(email)) where removed_at is null`,
      sql`create index console_users_merchant on console_users (merchant_id) where removed_at is null`,
      sql`alter table console_users add column totp_secret_sealed text`,
      sql`alter table console_users add column totp_pending_secret_sealed text`,
      sql`alter table console_users add column totp_last_step integer`,
      sql`alter table merchants add column console_two_factor_required boolean not null default false`,
      sql`
        create table console_recovery_codes (
          user_id text not null references console_users (id),
          code_hash text not null,
          used_at timestamptz,
          primary key (user_id, code_hash)
        )
      `,
      sql`alter table console_sessions add column session_id text`,
      sql`update console_sessions set session_id = 'ses_' || substr(md5(token_hash), 1, 20)`,
      sql`alter table console_sessions alter column session_id set not null`,
      sql`create unique index console_sessions_session_id_key on console_sessions (session_id)`,
      sql`alter table console_sessions add column last_seen_at timestamptz`,
      sql`update console_sessions set last_seen_at = created_at`,
      sql`alter table console_sessions alter column last_seen_at set not null`,
      sql`alter table console_sessions add column password_entered_at timestamptz`,
      sql`update console_sessions set password_entered_at = created_at`,
      sql`alter table console_sessions alter column password_entered_at set not null`,
      sql`alter table console_sessions add column device text not null default 'Unknown device'`,
      sql`alter table console_sessions add column address text not null default 'unknown'`,
      sql`drop table console_sign_in_failures`,
      sql`
        create table console_sign_in_attempts (
          subject text primary key,
          window_started_at timestamptz not null,
          attempts integer not null check (attempts >= 0),
          next_check_at timestamptz
        )
      `,
      sql`create index console_sign_in_attempts_window on console_sign_in_attempts (window_started_at)`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * The request log keeps two classes apart: `verified` says whether the request's signature checked out. Retention
 * caps each class on its own per merchant (console/request-log/retention.ts), through the index by merchant,
 * class and id, so refusals never push a verified request out. Rows written before say nothing of it: a 401
 * (OPEN_API_UNAUTHORIZED, the refusal of a key or signature) counts as unverified, every other row as verified.
 */
const requestLogClasses: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      sql`alter table open_api_request_log add column verified boolean not null default true`,
      sql`update open_api_request_log set verified = false where error_code = 'OPEN_API_UNAUTHORIZED'`,
      sql`alter table open_api_request_log alter column verified drop default`,
      sql`create index open_api_request_log_class on open_api_request_log (merchant_id, verified, id desc)`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/** All migrations by name, in order. */
export const migrations: Readonly<Record<string, Migration>> = {
  "0001_initial": initial,
  "0002_issue_login_ticket_function": issueTicketFunction,
  "0003_watch_totals": watchTotals,
  "0004_live_finalization": liveFinalization,
  "0005_subject_credit_watermark": subjectCreditWatermark,
  "0006_webinar_video_urls": webinarVideoUrls,
  "0007_validator_nonce_store": validatorNonceStore,
  "0008_merchant_console": merchantConsole,
  "0020_subject_key_and_batch_locks": subjectKeyAndBatchLocks,
  "0021_batch_locks_read_sessions_once": batchLocksReadSessionsOnce,
  "0022_console_team_security": consoleTeamSecurity,
  "0023_request_log_classes": requestLogClasses,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...migrations }) };

/** Applies every pending migration; throws with the failing migration's error. */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against every past schema, so no one Database type fits.
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName;
    throw new Error(
      `database migration${failed === undefined ? "" : ` ${failed}`} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
