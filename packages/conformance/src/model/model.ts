/**
 * The model of the model-based checks: what the API must hold after any sequence of calls, by the spec's rules,
 * for two merchants of the run's own. Each merchant has viewers (by a short key standing for an external id,
 * with the uid the server gave, a phone and a display name) and webinars (published or not, their live's state,
 * and the playback sessions the setup recorded); login tickets are valid until exchanged once or superseded by a
 * newer ticket of the same viewer, for any webinar. Pure data and the spec's expectations over it; no request is
 * made here. The figures a webinar's sessions add up to are the fixed checks' own (checks/known-sessions.ts).
 */
import type { DataState, PlaybackMode } from "@org/webinar-types";
import type { PlaybackSession } from "../setup-hooks";

export interface ViewerModel {
  key: string;
  externalUserId: string;
  uid: number;
  phone: string | null;
  displayName: string | null;
}

/** The webinar's live: not started, running, ended (or cancelled or failed) but not yet final, final. */
export type LiveModel = "not started" | "running" | "ended" | "final";

export interface WebinarModel {
  label: string;
  published: boolean;
  live: LiveModel;
  /** The playback sessions the setup recorded, as sent. */
  sessions: PlaybackSession[];
}

export interface MerchantModel {
  label: string;
  viewers: Map<string, ViewerModel>;
  webinars: WebinarModel[];
}

/** `valid` until exchanged (`used`) or superseded (`invalid`); `unknown` once the kit cannot say (expiry, a hidden webinar). */
export type TicketState = "valid" | "used" | "invalid" | "unknown";

export interface TicketModel {
  label: string;
  merchant: number;
  viewerKey: string;
  webinar: number;
  state: TicketState;
  expiresAtMs: number;
}

export interface Model {
  merchants: MerchantModel[];
  tickets: TicketModel[];
}

export function emptyModel(webinarsPerMerchant: readonly number[]): Model {
  return {
    merchants: webinarsPerMerchant.map((count, index) => {
      const label = String.fromCharCode(65 + index);
      return {
        label,
        viewers: new Map(),
        webinars: Array.from({ length: count }, (_, webinar) => ({
          label: `${label}/W${webinar + 1}`,
          published: true,
          live: "not started" as const,
          sessions: [],
        })),
      };
    }),
    tickets: [],
  };
}

/** The viewer of `merchant` that holds `phone`, other than `exceptKey`. */
export function phoneHolder(merchant: MerchantModel, phone: string, exceptKey: string): ViewerModel | undefined {
  return [...merchant.viewers.values()].find((viewer) => viewer.phone === phone && viewer.key !== exceptKey);
}

/** The viewer of `merchant` with `uid`. */
export function viewerWithUid(merchant: MerchantModel, uid: number): ViewerModel | undefined {
  return [...merchant.viewers.values()].find((viewer) => viewer.uid === uid);
}

/** A newer ticket of the same viewer of the same merchant invalidates its earlier unused ones, for any webinar. */
export function supersede(model: Model, merchant: number, viewerKey: string): void {
  for (const ticket of model.tickets)
    if (ticket.merchant === merchant && ticket.viewerKey === viewerKey && ticket.state === "valid")
      ticket.state = "invalid";
}

/** The registered viewers of `merchant` by uid, with their external ids: what the expected records name. */
export function externalIdsByUid(merchant: MerchantModel): Map<number, string> {
  return new Map([...merchant.viewers.values()].map((viewer) => [viewer.uid, viewer.externalUserId]));
}

/** The detail query of `LIVE` and `ALL` answers 409 `WATCH_DATA_NOT_FINAL` once the live started, until it is final. */
export function liveGated(webinar: WebinarModel, mode: PlaybackMode): boolean {
  return mode !== "REPLAY" && (webinar.live === "running" || webinar.live === "ended");
}

const DATA_STATE_BY_LIVE = {
  "not started": undefined,
  running: "PROVISIONAL",
  ended: "FINALIZING",
  final: "FINAL",
};

/**
 * The overview's `dataState`s the spec allows (Data states); undefined where it leaves it open: `LIVE` before the
 * live has started. `ALL` with replay data is provisional; once live data is final a server may call it final.
 */
export function allowedDataStates(webinar: WebinarModel, mode: PlaybackMode): readonly DataState[] | undefined {
  const withReplay = mode === "ALL" && webinar.sessions.some((session) => session.mode === "REPLAY");
  if (mode === "REPLAY" || (withReplay && webinar.live !== "final")) return ["PROVISIONAL"];
  if (withReplay) return ["PROVISIONAL", "FINAL"];
  const state = DATA_STATE_BY_LIVE[webinar.live] as DataState | undefined;
  return state === undefined ? undefined : [state];
}
