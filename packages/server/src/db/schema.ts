/**
 * Kysely's view of the tables created by ./migrations.ts. Column types are what both drivers (pg and PGlite)
 * return: `timestamptz` as Date, `integer` as number, `text` as string. No int8 columns are read, because pg
 * returns them as strings and PGlite as numbers.
 */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type MerchantStatus = "ACTIVE" | "SUSPENDED";
export type ApiKeyStatus = "ACTIVE" | "REVOKED";
export type WebinarStatus = "DRAFT" | "PUBLISHED" | "HIDDEN" | "SUSPENDED";
export type LiveStatus = "NOT_STARTED" | "LIVE" | "ENDED" | "CANCELLED" | "FAILED";
export type LiveAction = "START" | "END" | "CANCEL" | "FAIL";
export type TicketState = "UNUSED" | "CONSUMED" | "SUPERSEDED";
export type PlaybackMode = "LIVE" | "REPLAY";

export interface MerchantsTable {
  id: string;
  name: string;
  watch_origin: string | null;
  status: MerchantStatus;
  created_at: Timestamp;
  /** Whether every console person of the merchant must sign in with two steps (migration 0022). */
  console_two_factor_required: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface ApiKeysTable {
  api_key: string;
  merchant_id: string;
  /** The secret sealed with AES-256-GCM (see auth/secret-box.ts); HMAC needs the plaintext, so no hash. */
  secret_sealed: string;
  status: ApiKeyStatus;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  /** The minute a request signed with the key was last accepted (the request log's batches set it). */
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When a rolled key stops working; null for a key not rolled. */
  revokes_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface WebinarsTable {
  id: string;
  merchant_id: string;
  ticket_code: string;
  title: string | null;
  status: WebinarStatus;
  live_status: LiveStatus;
  live_started_at: Timestamp | null;
  live_ended_at: Timestamp | null;
  live_finalized_at: Timestamp | null;
  /** When the finalizer finalizes the live data (set by END, CANCEL, FAIL: then + grace). */
  live_finalize_due_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The watch page's video source while live, and after the live (null: the sample video). */
  live_video_url: ColumnType<string | null, string | null | undefined, string | null>;
  replay_video_url: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface WebinarLiveEventsTable {
  id: string;
  webinar_id: string;
  action: LiveAction | "FINALIZE";
  live_status: LiveStatus;
  occurred_at: Timestamp;
}

export interface ViewersTable {
  merchant_id: string;
  uid: number;
  external_user_id: string | null;
  phone: string | null;
  display_name: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LoginTicketsTable {
  /** Lowercase hex SHA-256 of the ticket; the ticket itself is never stored. */
  ticket_hash: string;
  merchant_id: string;
  uid: number;
  webinar_id: string;
  state: TicketState;
  issued_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
}

export interface WatchSessionsTable {
  /** Lowercase hex SHA-256 of the session cookie value. */
  session_hash: string;
  merchant_id: string;
  uid: number;
  webinar_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** The table of @org/webinar-validator's PostgreSQL nonce store (auth/nonce-stores.ts). */
export interface OpenApiNoncesTable {
  api_key: string;
  nonce: string;
  /** Epoch milliseconds; a bigint column, read as a string by the driver. */
  expires_at_ms: ColumnType<string, number, number>;
}

export interface PlaybackSessionsTable {
  id: string;
  webinar_id: string;
  merchant_id: string;
  uid: number | null;
  anonymous_id: string | null;
  mode: PlaybackMode;
  watch_seconds: number;
  device_type: string;
  protocol: string | null;
  started_at: Timestamp;
  recorded_at: Timestamp;
  /** The last heartbeat (or the end of an imported session). */
  last_activity_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** null while open (watch-page playback API). */
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Credited milliseconds (bigint, read as float8 only). */
  credited_ms: ColumnType<number | string, number | undefined, number>;
}

export interface ModerationBlockedTermsTable {
  term: string;
  position: number;
}

export interface ServerMetaTable {
  key: string;
  value: string;
  updated_at: Generated<Timestamp>;
}

export type WatchScope = "LIVE" | "REPLAY" | "ALL";

/** Per subject (`u:<uid>` or `a:<anonymousId>`) and scope, the sums of its playback sessions (bigints read as float8). */
export interface WatchSubjectTotalsTable {
  webinar_id: string;
  scope: WatchScope;
  subject_key: string;
  uid: number | null;
  live_seconds: ColumnType<number | string, number, number | string>;
  replay_seconds: ColumnType<number | string, number, number | string>;
  total_seconds: ColumnType<number | string, number, number | string>;
  session_count: number;
  first_watched_at: Timestamp;
  last_watched_at: Timestamp;
  device_types: string[];
  protocols: string[];
  /** End of the latest heartbeat credit in the row's mode (LIVE and REPLAY rows); see migration 0005. */
  credited_until: ColumnType<Date | null, never, Date>;
}

/** A watch subject's kind: a viewer's or an anonymous one (the database's `watch_subject_kind`, migration 0020). */
export type SubjectKind = "REGISTERED" | "ANONYMOUS";

/** Per webinar, scope and kind of subject, the counts of the overview. */
export interface WatchTotalsTable {
  webinar_id: string;
  scope: WatchScope;
  kind: SubjectKind;
  viewer_count: number;
  session_count: number;
  watch_seconds: ColumnType<number | string, number, number | string>;
  updated_at: Timestamp;
}

export type ConsoleRole = "OWNER" | "ANALYST";
export type ConsoleLanguage = "en" | "zh-CN";

export interface ConsoleUsersTable {
  id: string;
  merchant_id: string;
  email: string;
  role: ConsoleRole;
  /** scrypt hash (people/passwords.ts); null until the first invite is accepted. */
  password_hash: string | null;
  language: ConsoleLanguage | null;
  created_at: Timestamp;
  /** When the person was removed from the merchant; null while a member (migration 0022). */
  removed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The TOTP secret in use, sealed (keys/secret-box.ts); null without two-step sign-in. */
  totp_secret_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  /** A TOTP secret being enrolled, sealed; null when no enrollment is open. */
  totp_pending_secret_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last time step (Unix seconds / 30) a code was accepted for. */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ConsoleRecoveryCodesTable {
  user_id: string;
  /** Lowercase hex SHA-256 of the code, written without dashes in lower case. */
  code_hash: string;
  used_at: Timestamp | null;
}

export interface ConsoleInvitesTable {
  /** Lowercase hex SHA-256 of the invite token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  role: ConsoleRole;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface ConsoleSessionsTable {
  /** Lowercase hex SHA-256 of the session cookie value. */
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  /** Slides forward with each request, never past `absolute_expires_at`. */
  expires_at: Timestamp;
  absolute_expires_at: Timestamp;
  /** The public id of the session (listSessions, endSession). */
  session_id: string;
  /** The session's latest request, written at most once a minute. */
  last_seen_at: Timestamp;
  /** When the person last entered their password in this session (sign-in or confirmPassword). */
  password_entered_at: Timestamp;
  /** The browser and system of the sign-in (people/device-label.ts). */
  device: string;
  /** The client address of the latest request. */
  address: string;
}

export interface ConsoleSignInAttemptsTable {
  /** `pair:<email> <address>`, `address:<address>` or `email:<email>`, the email in lower case. */
  subject: string;
  window_started_at: Timestamp;
  /** Attempts counted in the window (not refused, and not given back by a right password). */
  attempts: number;
  /** For an email past its ceiling: the earliest moment its next attempt is checked. */
  next_check_at: Timestamp | null;
}

export interface ConsoleAuditEventsTable {
  id: Generated<string>;
  merchant_id: string;
  actor_user_id: string | null;
  action: string;
  target: string;
  details: ColumnType<Record<string, unknown>, string, string>;
  occurred_at: Timestamp;
}

export interface OpenApiRequestLogTable {
  id: Generated<string>;
  merchant_id: string;
  request_id: string;
  answered_at: Timestamp;
  api_key: string;
  operation_id: string | null;
  method: string;
  path: string;
  status: number;
  error_code: string | null;
  duration_ms: number;
  canonical_string: string | null;
  /** Whether the request's signature checked out: retention caps verified and unverified rows apart. */
  verified: boolean;
}

/** Every table of the service. */
export interface Database {
  merchants: MerchantsTable;
  api_keys: ApiKeysTable;
  webinars: WebinarsTable;
  webinar_live_events: WebinarLiveEventsTable;
  viewers: ViewersTable;
  login_tickets: LoginTicketsTable;
  watch_sessions: WatchSessionsTable;
  open_api_nonces: OpenApiNoncesTable;
  playback_sessions: PlaybackSessionsTable;
  moderation_blocked_terms: ModerationBlockedTermsTable;
  server_meta: ServerMetaTable;
  watch_subject_totals: WatchSubjectTotalsTable;
  watch_totals: WatchTotalsTable;
  console_users: ConsoleUsersTable;
  console_invites: ConsoleInvitesTable;
  console_sessions: ConsoleSessionsTable;
  console_recovery_codes: ConsoleRecoveryCodesTable;
  console_sign_in_attempts: ConsoleSignInAttemptsTable;
  console_audit_events: ConsoleAuditEventsTable;
  open_api_request_log: OpenApiRequestLogTable;
}
