/**
 * The crediting of one batch (creditHeartbeatBatch), without a database: the rules of the playback guide applied
 * call by call in arrival order, so a batch answers and writes what the same calls sent one by one would.
 */
import { describe, expect, it } from "vitest";
import type { ServiceError } from "../errors";
import type { LockedPlaybackSession } from "./heartbeat-credits";
import { subjectRowId } from "./heartbeat-credits";
import { creditHeartbeatBatch, type HeartbeatCall, type PlaybackReport } from "./heartbeat-batch";

const T0 = Date.parse("2026-03-01T10:00:00Z");
const LIVE = {
  live_status: "LIVE" as const,
  live_started_at: new Date(T0),
  live_ended_at: null,
  live_finalized_at: null,
};

/** A registered viewer's session as the database locks it (its subject's key and kind as watch_subject_key gives them). */
function session(
  id: string,
  uid: number,
  startedAt: number,
  extra: Partial<LockedPlaybackSession> = {},
): LockedPlaybackSession {
  return {
    id,
    webinarId: "wbn_1",
    uid,
    anonymousId: null,
    mode: "LIVE" as const,
    subjectKey: `u:${uid}`,
    kind: "REGISTERED",
    lastActivityAt: startedAt,
    ended: false,
    creditedMs: 0,
    live: LIVE,
    ...extra,
  };
}

const viewer = (uid: number) => ({ webinarId: "wbn_1", merchantId: "mch_1", uid, anonymousId: null });

function call(playbackId: string, uid: number, atSeconds: number, extra: Partial<HeartbeatCall> = {}): HeartbeatCall {
  return { playbackId, playing: true, close: false, at: T0 + atSeconds * 1000, subject: viewer(uid), ...extra };
}

/** The batch's answers as `seconds/total/ended`, or the error code. */
function answersOf(calls: HeartbeatCall[], sessions: LockedPlaybackSession[], watermarks = new Map<string, number>()) {
  const result = creditHeartbeatBatch(calls, new Map(sessions.map((s) => [s.id, s])), watermarks);
  const shown = result.answers.map((answer) =>
    "code" in answer
      ? (answer as ServiceError).code
      : `${(answer as PlaybackReport).creditedSeconds}/${(answer as PlaybackReport).watchSeconds}${(answer as PlaybackReport).ended ? "/ended" : ""}`,
  );
  return { shown, credits: result.credits };
}

/** The same calls each in a batch of its own, the rows carried from one to the next as the database would. */
function oneByOne(calls: HeartbeatCall[], sessions: LockedPlaybackSession[]) {
  const rows = new Map(sessions.map((s) => [s.id, { ...s }]));
  const watermarks = new Map<string, number>();
  return calls.map((single) => {
    const { answers, credits } = creditHeartbeatBatch([single], rows, watermarks);
    for (const written of credits.sessions) {
      Object.assign(rows.get(written.id)!, {
        lastActivityAt: written.lastActivityAt,
        creditedMs: written.creditedMs,
        ended: written.endedAt !== null,
      });
    }
    for (const subject of credits.subjects)
      if (subject.creditedUntil !== null) watermarks.set(subjectRowId(subject), subject.creditedUntil);
    const answer = answers[0]!;
    return "code" in answer
      ? (answer as ServiceError).code
      : `${answer.creditedSeconds}/${answer.watchSeconds}${answer.ended ? "/ended" : ""}`;
  });
}

describe("creditHeartbeatBatch (one transaction's calls, in arrival order)", () => {
  it.each([
    {
      name: "two tabs of one viewer: the first to report earns the shared stretch, the other only its own",
      sessions: [session("pb_a", 10001, T0), session("pb_b", 10001, T0 + 5000)],
      calls: [call("pb_a", 10001, 15), call("pb_b", 10001, 15)],
      answers: ["15/15", "0/0"],
    },
    {
      name: "two tabs, the later-started one first: the earlier stretch is not credited behind the watermark",
      sessions: [session("pb_a", 10001, T0), session("pb_b", 10001, T0 + 5000)],
      calls: [call("pb_b", 10001, 15), call("pb_a", 10001, 15)],
      answers: ["10/10", "0/0"],
    },
    {
      name: "a heartbeat then the stop of the same session: the stop credits nothing more and closes it",
      sessions: [session("pb_a", 10001, T0)],
      calls: [call("pb_a", 10001, 12), call("pb_a", 10001, 12, { close: true })],
      answers: ["12/12", "0/12/ended"],
    },
    {
      name: "the stop then a heartbeat of the same session: the session is closed, the heartbeat credits nothing",
      sessions: [session("pb_a", 10001, T0)],
      calls: [call("pb_a", 10001, 12, { close: true }), call("pb_a", 10001, 12)],
      answers: ["12/12/ended", "0/12/ended"],
    },
    {
      name: "someone else's session and an unknown one: PLAYBACK_NOT_FOUND for those calls only",
      sessions: [session("pb_a", 10001, T0)],
      calls: [call("pb_a", 10002, 10), call("pb_x", 10001, 10), call("pb_a", 10001, 10)],
      answers: ["PLAYBACK_NOT_FOUND", "PLAYBACK_NOT_FOUND", "10/10"],
    },
    {
      name: "fractions carry over between heartbeats of one batch; a paused one moves the clock only",
      sessions: [session("pb_a", 10001, T0)],
      calls: [
        call("pb_a", 10001, 1.5),
        call("pb_a", 10001, 3),
        call("pb_a", 10001, 9, { playing: false }),
        call("pb_a", 10001, 9.6),
      ],
      answers: ["1/1", "2/3", "0/3", "0/3"],
    },
    {
      name: "an already closed session answers ended and is never credited again",
      sessions: [session("pb_a", 10001, T0, { ended: true, creditedMs: 42_900 })],
      calls: [call("pb_a", 10001, 60)],
      answers: ["0/42/ended"],
    },
  ])("$name", ({ sessions, calls, answers }) => {
    expect(answersOf(calls, sessions).shown).toEqual(answers);
    expect(oneByOne(calls, sessions)).toEqual(answers);
  });

  it("a subject watermark from earlier batches is honoured, and only moves forward", () => {
    const sessions = [session("pb_a", 10001, T0)];
    const watermarks = new Map([
      [subjectRowId({ webinarId: "wbn_1", scope: "LIVE", subjectKey: "u:10001" }), T0 + 8000],
    ]);
    const { shown, credits } = answersOf([call("pb_a", 10001, 10)], sessions, watermarks);
    expect(shown).toEqual(["2/2"]);
    expect(credits.subjects.find((row) => row.scope === "LIVE")?.creditedUntil).toBe(T0 + 10_000);
  });

  it("writes each row once with the batch's sums: sessions, both subject scopes, both webinar totals", () => {
    const sessions = [session("pb_a", 10001, T0), session("pb_b", 10002, T0), session("pb_c", 10001, T0)];
    const { credits } = answersOf(
      [call("pb_a", 10001, 10), call("pb_b", 10002, 20), call("pb_c", 10001, 25), call("pb_a", 10001, 30)],
      sessions,
    );
    expect(credits.sessions).toEqual([
      { id: "pb_a", lastActivityAt: T0 + 30_000, creditedMs: 15_000, endedAt: null },
      { id: "pb_b", lastActivityAt: T0 + 20_000, creditedMs: 20_000, endedAt: null },
      { id: "pb_c", lastActivityAt: T0 + 25_000, creditedMs: 15_000, endedAt: null },
    ]);
    const subject = (uid: number, scope: string) =>
      credits.subjects.find((row) => row.subjectKey === `u:${uid}` && row.scope === scope);
    // Viewer 10001: 0-10 (pb_a), 10-25 (pb_c), 25-30 (pb_a): 30 s, each stretch once.
    expect(subject(10001, "LIVE")).toMatchObject({ liveSeconds: 30, replaySeconds: 0, creditedUntil: T0 + 30_000 });
    expect(subject(10001, "ALL")).toMatchObject({ liveSeconds: 30, creditedUntil: null, lastWatchedAt: T0 + 30_000 });
    expect(subject(10002, "ALL")).toMatchObject({ liveSeconds: 20, lastWatchedAt: T0 + 20_000 });
    expect(credits.totals).toEqual([
      { webinarId: "wbn_1", scope: "LIVE", kind: "REGISTERED", seconds: 50, updatedAt: T0 + 30_000 },
      { webinarId: "wbn_1", scope: "ALL", kind: "REGISTERED", seconds: 50, updatedAt: T0 + 30_000 },
    ]);
  });

  it("LIVE time after the live's end is not credited; the subject's last watch is the end", () => {
    const ended = { ...LIVE, live_status: "ENDED" as const, live_ended_at: new Date(T0 + 12_000) };
    const { shown, credits } = answersOf([call("pb_a", 10001, 20)], [session("pb_a", 10001, T0, { live: ended })]);
    expect(shown).toEqual(["12/12"]);
    expect(credits.subjects.find((row) => row.scope === "ALL")?.lastWatchedAt).toBe(T0 + 12_000);
  });
});
