/**
 * Watch data whose every figure the kit knows: a webinar of the run's own, registered viewers and anonymous
 * subjects with playback sessions recorded through the setup hooks (seconds, devices and protocols chosen so sums,
 * ties and both modes all occur), and the records and overview blocks the spec says a server must derive from them.
 */
import type { PlaybackMode, ViewerWatchRecord, WatchStats } from "@org/webinar-types";
import type { Credentials } from "../credentials";
import type { RunContext } from "../run-context";
import type { PlaybackSession } from "../setup-hooks";
import { ownMerchant, type HooksOf } from "./setup-needs";
import { createViewer } from "./viewers";

export type FigureHooks = HooksOf<
  "createMerchant" | "createWebinar" | "changeLive" | "finalizeLive" | "recordPlaybackSessions"
>;
export const FIGURE_HOOKS = [
  "createMerchant",
  "createWebinar",
  "changeLive",
  "finalizeLive",
  "recordPlaybackSessions",
] as const;

/** Enough registered viewers that the ALL detail holds more than 250 records, three pages of the largest size. */
export const KNOWN_VIEWERS = 280;
const DEVICES = ["DESKTOP", "MOBILE", "TABLET", "TV"] as const;
const PROTOCOLS = ["HLS", "WEBRTC"];
const ANONYMOUS_LIVE = [100, 200, 300];
const ANONYMOUS_REPLAY = [40, 50];

/** The figures of one registered viewer in one mode, as a record of the detail query must show them. */
export type ExpectedRecord = Pick<
  ViewerWatchRecord,
  "uid" | "externalUserId" | "totalWatchSeconds" | "liveWatchSeconds" | "replayWatchSeconds" | "sessionCount"
> & { deviceTypes: string[]; protocols: string[] };

export interface KnownData {
  ticketCode: string;
  credentials: Credentials;
  sessions: PlaybackSession[];
  /** uid -> externalUserId of each registered viewer. */
  viewers: Map<number, string>;
}

function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** The sessions of viewer `index`: most watch live, two in three watch the replay, every seventh watches live twice. */
function sessionsOf(index: number, uid: number, startMs: number): PlaybackSession[] {
  const subject = { uid };
  const at = (offsetSeconds: number) => iso(startMs + offsetSeconds * 1000);
  const device = DEVICES[index % DEVICES.length]!;
  const protocol = PROTOCOLS[index % PROTOCOLS.length]!;
  const sessions: PlaybackSession[] = [];
  // Seconds repeat every 40 viewers, so every sort has ties for the server to break.
  const seconds = 10 + (((index % 40) * 37) % 1190);
  if (index % 5 !== 4)
    sessions.push({ subject, mode: "LIVE", watchSeconds: seconds, deviceType: device, protocol, startedAt: at(index) });
  if (index % 7 === 0)
    sessions.push({
      subject,
      mode: "LIVE",
      watchSeconds: 5 + (index % 13),
      deviceType: DEVICES[(index + 1) % DEVICES.length]!,
      protocol: PROTOCOLS[(index + 1) % PROTOCOLS.length]!,
      startedAt: at(index + 1800),
    });
  if (index % 3 !== 0)
    sessions.push({
      subject,
      mode: "REPLAY",
      watchSeconds: 1 + (((index % 30) * 53) % 900),
      deviceType: device,
      protocol,
      startedAt: at(7200 + index),
    });
  return sessions;
}

function anonymousSessions(startMs: number): PlaybackSession[] {
  const session = (mode: "LIVE" | "REPLAY", watchSeconds: number, index: number): PlaybackSession => ({
    subject: { anonymousId: `wc-anonymous-${mode.toLowerCase()}-${index}` },
    mode,
    watchSeconds,
    deviceType: "UNKNOWN",
    protocol: "HLS",
    startedAt: iso(startMs + (mode === "LIVE" ? 60 : 7300) * 1000),
  });
  return [
    ...ANONYMOUS_LIVE.map((seconds, index) => session("LIVE", seconds, index)),
    ...ANONYMOUS_REPLAY.map((seconds, index) => session("REPLAY", seconds, index)),
  ];
}

/** Runs `make` over `items`, `width` at a time. */
async function inBatches<T, R>(items: readonly T[], width: number, make: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width)
    results.push(...(await Promise.all(items.slice(start, start + width).map(make))));
  return results;
}

/** The known webinar, made once per run: live sessions while the live runs, then finalized, then replay sessions. */
export function knownData(context: RunContext, hooks: FigureHooks): Promise<KnownData> {
  return context.once("known-data", async () => {
    const merchant = await ownMerchant(context, hooks, "figures");
    const ticketCode = await hooks.createWebinar(merchant.merchantId, "PUBLISHED");
    const indexes = Array.from({ length: KNOWN_VIEWERS }, (_, index) => index);
    const viewers = await inBatches(indexes, 10, (index) =>
      createViewer(context, `figures-${index}`, {}, merchant.credentials),
    );
    // Three hours ago, so no session ends in the future of the server's clock.
    const startMs = context.clock.now() - 3 * 3600 * 1000;
    const sessions = [
      ...viewers.flatMap((viewer, index) => sessionsOf(index, viewer.uid, startMs)),
      ...anonymousSessions(startMs),
    ];
    const batches = (mode: "LIVE" | "REPLAY") => {
      const ofMode = sessions.filter((session) => session.mode === mode);
      return Array.from({ length: Math.ceil(ofMode.length / 20) }, (_, index) =>
        ofMode.slice(index * 20, index * 20 + 20),
      );
    };
    await hooks.changeLive(ticketCode, "START");
    await inBatches(batches("LIVE"), 4, (batch) => hooks.recordPlaybackSessions(ticketCode, batch));
    await hooks.changeLive(ticketCode, "END");
    await hooks.finalizeLive(ticketCode);
    await inBatches(batches("REPLAY"), 4, (batch) => hooks.recordPlaybackSessions(ticketCode, batch));
    return {
      ticketCode,
      credentials: merchant.credentials,
      sessions,
      viewers: new Map(viewers.map((viewer) => [viewer.uid, viewer.externalUserId])),
    };
  });
}

const inMode = (mode: PlaybackMode) => (session: PlaybackSession) => mode === "ALL" || session.mode === mode;
const sum = (sessions: readonly PlaybackSession[]) =>
  sessions.reduce((total, session) => total + session.watchSeconds, 0);
const distinct = (values: readonly string[]) => [...new Set(values)].sort();

/** Sessions and the registered viewers they may name: the known data, or the model's of a webinar. */
export type SessionsOf = Pick<KnownData, "sessions" | "viewers">;

/** Every registered viewer's record in `mode`, by uid: only viewers with a session in that mode have one. */
export function expectedRecords(data: SessionsOf, mode: PlaybackMode): Map<number, ExpectedRecord> {
  const records = new Map<number, ExpectedRecord>();
  for (const [uid, externalUserId] of data.viewers) {
    const own = data.sessions.filter((session) => "uid" in session.subject && session.subject.uid === uid);
    const sessions = own.filter(inMode(mode));
    if (sessions.length === 0) continue;
    const live = sum(sessions.filter((session) => session.mode === "LIVE"));
    const replay = sum(sessions.filter((session) => session.mode === "REPLAY"));
    records.set(uid, {
      uid,
      externalUserId,
      totalWatchSeconds: live + replay,
      liveWatchSeconds: live,
      replayWatchSeconds: replay,
      sessionCount: sessions.length,
      deviceTypes: distinct(sessions.map((session) => session.deviceType)),
      protocols: distinct(sessions.map((session) => session.protocol)),
    });
  }
  return records;
}

const subjectKey = (session: PlaybackSession) =>
  "uid" in session.subject ? `u${session.subject.uid}` : `a${session.subject.anonymousId}`;

function statsOf(sessions: readonly PlaybackSession[]): WatchStats {
  return {
    viewerCount: new Set(sessions.map(subjectKey)).size,
    sessionCount: sessions.length,
    watchSeconds: sum(sessions),
  };
}

/** The overview's blocks in `mode`; `viewerCount` of `ALL` as a distinct count (a provisional one may add modes). */
export function expectedOverview(data: Pick<KnownData, "sessions">, mode: PlaybackMode) {
  const sessions = data.sessions.filter(inMode(mode));
  const registered = sessions.filter((session) => "uid" in session.subject);
  const anonymous = sessions.filter((session) => "anonymousId" in session.subject);
  return {
    all: statsOf(sessions),
    registered: statsOf(registered),
    anonymous: statsOf(anonymous),
    liveWatchSeconds: sum(sessions.filter((session) => session.mode === "LIVE")),
    replayWatchSeconds: sum(sessions.filter((session) => session.mode === "REPLAY")),
    /** viewerCount when live and replay counts of the same subject are added, as a provisional ALL may. */
    addedViewerCounts: {
      all:
        statsOf(sessions.filter(inMode("LIVE"))).viewerCount + statsOf(sessions.filter(inMode("REPLAY"))).viewerCount,
      registered:
        statsOf(registered.filter(inMode("LIVE"))).viewerCount +
        statsOf(registered.filter(inMode("REPLAY"))).viewerCount,
      anonymous:
        statsOf(anonymous.filter(inMode("LIVE"))).viewerCount + statsOf(anonymous.filter(inMode("REPLAY"))).viewerCount,
    },
  };
}
