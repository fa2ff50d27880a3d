import { describe, expect, it } from "vitest";
import type { PlaybackSession } from "../setup-hooks";
import { allowedDataStates, liveGated, type LiveModel, type WebinarModel } from "./model";

const session = (mode: "LIVE" | "REPLAY"): PlaybackSession => ({
  subject: { uid: 10001 },
  mode,
  watchSeconds: 60,
  deviceType: "DESKTOP",
  protocol: "HLS",
  startedAt: "2026-11-28T00:00:00Z",
});

const webinar = (live: LiveModel, sessions: PlaybackSession[] = []): WebinarModel => ({
  label: "A/W1",
  published: true,
  live,
  sessions,
});

const LIVES: LiveModel[] = ["not started", "running", "ended", "final"];

describe("the model's live rules (Data states)", () => {
  it("gates LIVE and ALL detail queries from the live's start until its data is final; never REPLAY", () => {
    expect(LIVES.map((live) => liveGated(webinar(live), "LIVE"))).toEqual([false, true, true, false]);
    expect(LIVES.map((live) => liveGated(webinar(live), "ALL"))).toEqual([false, true, true, false]);
    expect(LIVES.map((live) => liveGated(webinar(live), "REPLAY"))).toEqual([false, false, false, false]);
  });

  it("allows PROVISIONAL while the live runs, FINALIZING once it stopped, FINAL once finalized; open before it starts", () => {
    expect(LIVES.map((live) => allowedDataStates(webinar(live), "LIVE"))).toEqual([
      undefined,
      ["PROVISIONAL"],
      ["FINALIZING"],
      ["FINAL"],
    ]);
  });

  it("keeps REPLAY provisional, and ALL with replay data provisional until live data is final", () => {
    for (const live of LIVES) expect(allowedDataStates(webinar(live), "REPLAY")).toEqual(["PROVISIONAL"]);
    const withReplay = (live: LiveModel) => allowedDataStates(webinar(live, [session("REPLAY")]), "ALL");
    expect(LIVES.map(withReplay)).toEqual([
      ["PROVISIONAL"],
      ["PROVISIONAL"],
      ["PROVISIONAL"],
      ["PROVISIONAL", "FINAL"],
    ]);
    // Without replay data, ALL follows the live as LIVE does.
    expect(allowedDataStates(webinar("ended", [session("LIVE")]), "ALL")).toEqual(["FINALIZING"]);
  });
});
