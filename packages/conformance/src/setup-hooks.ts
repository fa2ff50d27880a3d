/**
 * Setup hooks: what a black box cannot do, written by the server's authors over their own database or admin API.
 * A client cannot revoke a key, suspend a merchant, hide a webinar, run a live or record watch time, so without
 * these hooks the kit cannot see whether the server honours those states. Every hook is optional: a check that
 * needs a hook the setup lacks is skipped, and its reason names the hook.
 *
 * Each hook resolves once the change is visible to the Open API (a cache invalidated, a background job done) and
 * rejects when it could not make the change; the kit then fails the check that called it, with the hook's message.
 *
 * @example
 * ```ts
 * // conformance-setup.ts, run with: webinar-conformance --setup ./conformance-setup.ts ...
 * import type { ConformanceSetup } from "@org/webinar-conformance";
 * import { db } from "./db";
 *
 * const setup: ConformanceSetup = {
 *   async createMerchant() {
 *     const merchant = await db.merchants.insert({ name: "conformance" });
 *     const key = await db.apiKeys.issue(merchant.id);
 *     return { merchantId: merchant.id, credentials: { apiKey: key.id, secret: key.secret } };
 *   },
 *   revokeApiKey: (apiKey) => db.apiKeys.revoke(apiKey),
 * };
 * export default setup;
 * ```
 */
import type { Credentials } from "./credentials";

/** A webinar state of the spec: only a `PUBLISHED` webinar may be used for login tickets. */
export type WebinarState = "DRAFT" | "PUBLISHED" | "HIDDEN" | "SUSPENDED";

/** A change of the webinar's live: started, then ended, cancelled or failed. */
export type LiveAction = "START" | "END" | "CANCEL" | "FAIL";

/** A merchant the setup created, with one active API key. */
export interface SetupMerchant {
  /** The server's own id of the merchant; the kit only hands it back to the hooks. */
  merchantId: string;
  credentials: Credentials;
}

/** Who watched: a registered viewer by `uid`, or a system anonymous subject by an id of the setup's choice. */
export type PlaybackSubject = { uid: number } | { anonymousId: string };

/** One finished playback session, recorded as if the watch page had reported it. */
export interface PlaybackSession {
  subject: PlaybackSubject;
  mode: "LIVE" | "REPLAY";
  /** Effective seconds watched. */
  watchSeconds: number;
  /** A device class of the spec's records: DESKTOP, MOBILE, TABLET, TV or UNKNOWN. */
  deviceType: "DESKTOP" | "MOBILE" | "TABLET" | "TV" | "UNKNOWN";
  /** The playback protocol as recorded, e.g. `HLS` or `WEBRTC`. */
  protocol: string;
  /** When the session started, UTC RFC3339. */
  startedAt: string;
}

/** The hooks a server's authors implement for the kit; every one is optional. */
export interface ConformanceSetup {
  /** Creates an active merchant with one API key; the state checks each work in a merchant of their own. */
  createMerchant?(): Promise<SetupMerchant>;
  /** Issues another API key of the merchant. */
  createApiKey?(merchantId: string): Promise<Credentials>;
  /** Revokes a key: from now on every request signed with it is 401 `OPEN_API_UNAUTHORIZED`. */
  revokeApiKey?(apiKey: string): Promise<void>;
  /** Suspends (`SUSPENDED`, 403 `TENANT_SUSPENDED`) or reactivates (`ACTIVE`) the merchant. */
  setMerchantStatus?(merchantId: string, status: "ACTIVE" | "SUSPENDED"): Promise<void>;
  /** Creates a webinar of the merchant in `state`, live not started, and resolves its `ticketCode`. */
  createWebinar?(merchantId: string, state: WebinarState): Promise<string>;
  /** Moves the webinar to `state`. */
  setWebinarState?(ticketCode: string, state: WebinarState): Promise<void>;
  /** Starts the webinar's live, or ends, cancels or fails it. */
  changeLive?(ticketCode: string, action: LiveAction): Promise<void>;
  /** Finalizes the live data of an ended, cancelled or failed live now, so `LIVE` reads `FINAL`. */
  finalizeLive?(ticketCode: string): Promise<void>;
  /** Records finished playback sessions; the figures must be readable by the watch-data operations at once. */
  recordPlaybackSessions?(ticketCode: string, sessions: readonly PlaybackSession[]): Promise<void>;
  /** Makes upserts refuse a display name containing one of `terms` with 400 `CONTENT_SENSITIVE`. */
  blockDisplayNameTerms?(terms: readonly string[]): Promise<void>;
  /**
   * Exchanges a login ticket where the watch page does (what `sessionUrl` names otherwise): `true` when the
   * server accepted it and opened a session, `false` when it refused it.
   */
  exchangeLoginTicket?(ticketCode: string, loginTicket: string): Promise<boolean>;
  /** The server's login ticket lifetime in seconds; the expiry check waits that long (at most 120 s). */
  ticketLifetimeSeconds?: number;
}

/** The name of each hook, as a skipped check's reason names it. */
export type SetupHookName = Exclude<keyof ConformanceSetup, "ticketLifetimeSeconds">;
