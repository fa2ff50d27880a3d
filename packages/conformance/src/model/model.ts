/**
 * The model of the model-based checks: what the API must hold after any sequence of calls, by the spec's rules,
 * for two merchants of the run's own. Each merchant has viewers (by a short key standing for an external id,
 * with the uid the server gave, a phone and a display name) and webinars (published or not, with the replay
 * sessions the setup recorded); login tickets are valid until exchanged once or superseded by a newer ticket of
 * the same viewer, for any webinar. Pure data and the spec's expectations over it; no request is made here.
 */

export interface ViewerModel {
  key: string;
  externalUserId: string;
  uid: number;
  phone: string | null;
  displayName: string | null;
}

export interface SessionModel {
  /** A viewer's key, or an anonymous subject's id. */
  subject: { key: string } | { anonymousId: string };
  watchSeconds: number;
}

export interface WebinarModel {
  label: string;
  published: boolean;
  sessions: SessionModel[];
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

export interface Figures {
  viewerCount: number;
  sessionCount: number;
  watchSeconds: number;
}

function figuresOf(sessions: readonly SessionModel[]): Figures {
  const subjects = new Set(sessions.map((session) => JSON.stringify(session.subject)));
  return {
    viewerCount: subjects.size,
    sessionCount: sessions.length,
    watchSeconds: sessions.reduce((sum, session) => sum + session.watchSeconds, 0),
  };
}

/** The REPLAY overview of a webinar whose sessions are all replay sessions. */
export function expectedReplayOverview(webinar: WebinarModel) {
  const registered = figuresOf(webinar.sessions.filter((session) => "key" in session.subject));
  const anonymous = figuresOf(webinar.sessions.filter((session) => "anonymousId" in session.subject));
  const all = figuresOf(webinar.sessions);
  return { all, registered, anonymous, liveWatchSeconds: 0, replayWatchSeconds: all.watchSeconds };
}

export interface ExpectedRecord {
  uid: number;
  externalUserId: string;
  phone: string | undefined;
  displayName: string | undefined;
  totalWatchSeconds: number;
  replayWatchSeconds: number;
  liveWatchSeconds: number;
  sessionCount: number;
}

/** One REPLAY record per viewer with a session, with the viewer's fields as they are now. */
export function expectedReplayRecords(merchant: MerchantModel, webinar: WebinarModel): Map<number, ExpectedRecord> {
  const records = new Map<number, ExpectedRecord>();
  for (const session of webinar.sessions) {
    if (!("key" in session.subject)) continue;
    const viewer = merchant.viewers.get(session.subject.key)!;
    const record = records.get(viewer.uid) ?? {
      uid: viewer.uid,
      externalUserId: viewer.externalUserId,
      phone: viewer.phone ?? undefined,
      displayName: viewer.displayName ?? undefined,
      totalWatchSeconds: 0,
      replayWatchSeconds: 0,
      liveWatchSeconds: 0,
      sessionCount: 0,
    };
    record.totalWatchSeconds += session.watchSeconds;
    record.replayWatchSeconds += session.watchSeconds;
    record.sessionCount += 1;
    records.set(viewer.uid, record);
  }
  return records;
}
