/**
 * A batch of heartbeats and stops credited by one transaction (the group commit of heartbeat-batcher.ts): the
 * rules of crediting-rules.ts applied call by call in arrival order to the rows the transaction locked, exactly as
 * if the calls had come one by one. A session's clock and credited milliseconds, and its subject's credit watermark,
 * move within the batch, so two heartbeats of one session, or of two tabs of one subject, are credited each
 * stretch of time once, and a stop closes its session for the calls after it.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";
import {
  lockBatchRows,
  subjectRowId,
  writeBatchCredits,
  type BatchCredits,
  type LockedPlaybackSession,
  type SubjectCredit,
  type SubjectRowKey,
  type TotalsCredit,
} from "./heartbeat-credits";
import { HEARTBEAT_INTERVAL_SECONDS } from "../config";
import { creditedSegment, creditWindow } from "./crediting-rules";
import type { WatchSubject } from "./watch-subject";

/** A heartbeat (`close` false) or a stop (`close` true) as the server received it. */
export interface HeartbeatCall {
  playbackId: string;
  playing: boolean;
  close: boolean;
  /** When it arrived (epoch milliseconds): the end of the time it reports. */
  at: number;
  subject: WatchSubject;
}

/** The answer to one call (watch-openapi.yaml, PlaybackReport, without its requestId). */
export interface PlaybackReport {
  playbackId: string;
  creditedSeconds: number;
  watchSeconds: number;
  ended: boolean;
}

function owns(subject: WatchSubject, session: LockedPlaybackSession): boolean {
  return (
    (subject.webinarId === null || session.webinarId === subject.webinarId) &&
    (subject.uid !== null ? session.uid === subject.uid : session.anonymousId === subject.anonymousId)
  );
}

const notFound = () => new ServiceError("PLAYBACK_NOT_FOUND", "no such playback session of this viewer");

/** The subject totals rows a session's credit writes: its mode's, then ALL's (the lock order within a subject). */
function subjectRowsOf(session: LockedPlaybackSession): [SubjectRowKey, SubjectRowKey] {
  const { subjectKey } = session;
  return [
    { webinarId: session.webinarId, scope: session.mode, subjectKey },
    { webinarId: session.webinarId, scope: "ALL", subjectKey },
  ];
}

/** What the calls of a batch add up to, row by row, as they are credited one after another. */
class BatchLedger {
  readonly sessions = new Map<string, LockedPlaybackSession>();
  readonly touched = new Set<string>();
  readonly subjects = new Map<string, SubjectCredit>();
  readonly totals = new Map<string, TotalsCredit>();

  constructor(
    locked: ReadonlyMap<string, LockedPlaybackSession>,
    private readonly watermarks: Map<string, number>,
  ) {
    for (const [id, session] of locked) this.sessions.set(id, { ...session });
  }

  private subjectRow(key: SubjectRowKey): SubjectCredit {
    const id = subjectRowId(key);
    let row = this.subjects.get(id);
    if (row === undefined) {
      const { webinarId, scope, subjectKey } = key;
      row = {
        webinarId,
        scope,
        subjectKey,
        creditedUntil: null,
        liveSeconds: 0,
        replaySeconds: 0,
        lastWatchedAt: null,
      };
      this.subjects.set(id, row);
    }
    return row;
  }

  /** The part of `segment` the subject was not credited for yet, in milliseconds; moves its watermark. */
  claim(session: LockedPlaybackSession, segment: { from: number; until: number }): number {
    const [modeRow] = subjectRowsOf(session);
    const id = subjectRowId(modeRow);
    const from = Math.max(segment.from, this.watermarks.get(id) ?? -Infinity);
    if (segment.until <= from) return 0;
    this.watermarks.set(id, segment.until);
    this.subjectRow(modeRow).creditedUntil = segment.until;
    return segment.until - from;
  }

  /** Adds `seconds` of the session to its subject's rows and its webinar's totals (its mode and ALL). */
  addSeconds(session: LockedPlaybackSession, seconds: number, watchedUntil: number, at: number): void {
    const { kind } = session;
    for (const key of subjectRowsOf(session)) {
      const row = this.subjectRow(key);
      if (session.mode === "LIVE") row.liveSeconds += seconds;
      else row.replaySeconds += seconds;
      row.lastWatchedAt = Math.max(row.lastWatchedAt ?? -Infinity, watchedUntil);
      const totalsId = `${key.webinarId}\n${key.scope}\n${kind}`;
      const totals = this.totals.get(totalsId) ?? {
        webinarId: key.webinarId,
        scope: key.scope,
        kind,
        seconds: 0,
        updatedAt: at,
      };
      totals.seconds += seconds;
      totals.updatedAt = Math.max(totals.updatedAt, at);
      this.totals.set(totalsId, totals);
    }
  }

  credits(): BatchCredits {
    const sessions = [...this.touched].map((id) => {
      const session = this.sessions.get(id)!;
      return {
        id,
        lastActivityAt: session.lastActivityAt,
        creditedMs: session.creditedMs,
        endedAt: session.ended ? session.lastActivityAt : null,
      };
    });
    return { sessions, subjects: [...this.subjects.values()], totals: [...this.totals.values()] };
  }
}

/**
 * One call credited against the ledger: the rules of crediting-rules.ts, in the order the calls arrived, capped at
 * twice the heartbeat interval the server announces.
 */
function creditCall(ledger: BatchLedger, call: HeartbeatCall, intervalSeconds: number): PlaybackReport | ServiceError {
  const session = ledger.sessions.get(call.playbackId);
  if (session === undefined || !owns(call.subject, session)) return notFound();
  const before = session.creditedMs;
  if (session.ended) {
    return { playbackId: call.playbackId, creditedSeconds: 0, watchSeconds: Math.floor(before / 1000), ended: true };
  }
  const window = creditWindow(session.mode, session.live);
  const segment = creditedSegment(session.lastActivityAt, call.at, call.playing, window, intervalSeconds);
  // Time another session of the same subject and mode was already credited for is not credited again.
  const after = before + (segment === undefined ? 0 : ledger.claim(session, segment));
  const seconds = Math.floor(after / 1000) - Math.floor(before / 1000);
  const at = Math.max(call.at, session.lastActivityAt);
  session.lastActivityAt = at;
  session.creditedMs = after;
  session.ended = call.close;
  ledger.touched.add(session.id);
  if (seconds > 0) ledger.addSeconds(session, seconds, Math.min(at, window.until), at);
  return {
    playbackId: call.playbackId,
    creditedSeconds: seconds,
    watchSeconds: Math.floor(after / 1000),
    ended: call.close,
  };
}

/**
 * Credits `calls` against the locked sessions and their subjects' watermarks (by subjectRowId): each call's answer
 * (a PLAYBACK_NOT_FOUND error for a session that is not the caller's) and the rows to write (pure: the rules, testable
 * without a database).
 */
export function creditHeartbeatBatch(
  calls: readonly HeartbeatCall[],
  sessions: ReadonlyMap<string, LockedPlaybackSession>,
  watermarks: ReadonlyMap<string, number>,
  intervalSeconds = HEARTBEAT_INTERVAL_SECONDS,
): { answers: (PlaybackReport | ServiceError)[]; credits: BatchCredits } {
  const ledger = new BatchLedger(sessions, new Map(watermarks));
  const answers = calls.map((call) => creditCall(ledger, call, intervalSeconds));
  return { answers, credits: ledger.credits() };
}

/**
 * Credits a batch in one transaction: locks its sessions (read with their webinars' live columns), their subjects'
 * rows and their webinars' totals, credits call by call, writes everything in one statement and commits. Throws
 * when the database fails: then nothing of the batch is credited.
 */
export async function commitHeartbeatBatch(
  db: Kysely<Database>,
  calls: readonly HeartbeatCall[],
  intervalSeconds = HEARTBEAT_INTERVAL_SECONDS,
): Promise<(PlaybackReport | ServiceError)[]> {
  return db.transaction().execute(async (trx) => {
    const { sessions, watermarks } = await lockBatchRows(trx, [...new Set(calls.map((call) => call.playbackId))]);
    const { answers, credits } = creditHeartbeatBatch(calls, sessions, watermarks, intervalSeconds);
    if (credits.sessions.length > 0) await writeBatchCredits(trx, credits);
    return answers;
  });
}
