/**
 * Watch data as model commands: the live of a webinar moved through the setup hooks (started, ended, cancelled or
 * failed, finalized), playback sessions imported through the setup hook (LIVE ones while the live runs or awaits
 * finalization, REPLAY ones at any time), the overview of each mode (exactly the sessions' viewers, sessions and
 * seconds, registered and anonymous, and the `dataState` the live's state allows; another merchant's webinar is 404
 * `WEBINAR_NOT_FOUND`) and the detail of each mode walked page by page to the end (one record per viewer who
 * watched, with the viewer's phone and name as they are now, in the sort's order), or 409 `WATCH_DATA_NOT_FINAL`
 * for `LIVE` and `ALL` between the live's start and its final data.
 */
import type fc from "fast-check";
import type { PlaybackMode, Sort, ViewerWatchPage, ViewerWatchRecord, WatchOverview } from "@org/webinar-types";
import { CheckFailure, dataOf, ensure, expectError, expectSuccess } from "../check";
import { ensureExactly, overviewDifferences } from "../checks/exact-figures";
import { expectedRecords } from "../checks/known-sessions";
import type { LiveAction } from "../setup-hooks";
import { allowedDataStates, externalIdsByUid, liveGated, type Model, type WebinarModel } from "./model";
import { note, send, type Real } from "./real";

/** Pages a walk may take before it is judged endless. */
const MAX_PAGES = 50;

const webinarLabel = (webinar: number) => `A/W${webinar + 1}`;

/** Moves the live `steps` along (start, stop, finalize), as far as it goes, then reads the LIVE overview. */
export class LiveCommand implements fc.AsyncCommand<Model, Real> {
  /** `end`: how a running live stops. */
  constructor(readonly params: { webinar: number; steps: number; end: Exclude<LiveAction, "START"> }) {}

  check(model: Model): boolean {
    return model.merchants[0]!.webinars[this.params.webinar]!.live !== "final";
  }

  async run(model: Model, real: Real): Promise<void> {
    const { webinar, steps, end } = this.params;
    const state = model.merchants[0]!.webinars[webinar]!;
    const ticketCode = real.merchants[0]!.ticketCodes[webinar]!;
    const { setup } = real.context.options;
    for (let step = 0; step < steps && state.live !== "final"; step += 1) {
      if (state.live === "ended") {
        await setup.finalizeLive!(ticketCode);
        note(real, { setup: "finalizeLive", webinar: state.label });
        state.live = "final";
        continue;
      }
      const action = state.live === "not started" ? "START" : end;
      await setup.changeLive!(ticketCode, action);
      note(real, { setup: "changeLive", webinar: state.label, action });
      state.live = action === "START" ? "running" : "ended";
    }
    // The LIVE overview is how a merchant settles live data (Data states): each stop of the live is read there.
    await checkOverview(model, real, webinar, "LIVE");
  }

  toString(): string {
    const { webinar, steps, end } = this.params;
    return `live(${webinarLabel(webinar)}, ${steps} step${steps === 1 ? "" : "s"}, ${end})`;
  }
}

export class SessionCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly params: { webinar: number; mode: "LIVE" | "REPLAY"; key: string | undefined; watchSeconds: number },
  ) {}

  /** A viewer the model knows; LIVE sessions only while the live runs or awaits its final data. */
  check(model: Model): boolean {
    const { webinar, mode, key } = this.params;
    const merchant = model.merchants[0]!;
    const live = merchant.webinars[webinar]!.live;
    return (
      (key === undefined || merchant.viewers.has(key)) && (mode === "REPLAY" || live === "running" || live === "ended")
    );
  }

  async run(model: Model, real: Real): Promise<void> {
    const { webinar, mode, key, watchSeconds } = this.params;
    const merchant = model.merchants[0]!;
    const state = merchant.webinars[webinar]!;
    const subject = key === undefined ? { anonymousId: "model-anonymous" } : { uid: merchant.viewers.get(key)!.uid };
    const startedAt = new Date(real.context.clock.now() - 3_600_000 + state.sessions.length * 60_000);
    const session = {
      subject,
      mode,
      watchSeconds,
      deviceType: "DESKTOP" as const,
      protocol: "HLS",
      startedAt: startedAt.toISOString(),
    };
    await real.context.options.setup.recordPlaybackSessions!(real.merchants[0]!.ticketCodes[webinar]!, [session]);
    note(real, { setup: "recordPlaybackSessions", webinar: state.label, subject, mode, watchSeconds });
    state.sessions.push(session);
  }

  toString(): string {
    const { webinar, mode, key, watchSeconds } = this.params;
    return `session(${webinarLabel(webinar)}, ${mode}, ${key ?? "anonymous"}, ${watchSeconds} s)`;
  }
}

/** The overview of merchant A's `webinar` in `mode`, checked against the model: figures and `dataState`. */
async function checkOverview(model: Model, real: Real, webinar: number, mode: PlaybackMode): Promise<void> {
  const ticketCode = real.merchants[0]!.ticketCodes[webinar]!;
  const answer = await send(real, 0, "getWatchOverview", { ticketCode, playbackMode: mode });
  expectSuccess(answer);
  const overview = dataOf<WatchOverview>(answer);
  const state = model.merchants[0]!.webinars[webinar]!;
  const wrong = overviewDifferences(state, mode, overview);
  ensure(wrong.length === 0, `the ${mode} overview does not add up: ${wrong.join("; ")}`);
  const allowed = allowedDataStates(state, mode);
  ensure(
    allowed === undefined || allowed.includes(overview.dataState),
    `the ${mode} overview's dataState is ${overview.dataState} while the live is ${state.live}, expected ${allowed?.join(" or ")}`,
  );
}

export class OverviewCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly params: { asMerchant: number; webinar: number; mode: PlaybackMode }) {}

  check(): boolean {
    return true;
  }

  async run(model: Model, real: Real): Promise<void> {
    const { asMerchant, webinar, mode } = this.params;
    if (asMerchant === 0) return checkOverview(model, real, webinar, mode);
    const ticketCode = real.merchants[0]!.ticketCodes[webinar]!;
    const answer = await send(real, asMerchant, "getWatchOverview", { ticketCode, playbackMode: mode });
    expectError(answer, 404, ["WEBINAR_NOT_FOUND"]);
  }

  toString(): string {
    const { asMerchant, webinar, mode } = this.params;
    return `overview(as ${"AB"[asMerchant]}, ${webinarLabel(webinar)}, ${mode})`;
  }
}

/** Each record shows its viewer's phone and name as they are now (omitted when unset). */
function viewerFieldProblems(model: Model, items: readonly ViewerWatchRecord[]): string[] {
  const viewers = [...model.merchants[0]!.viewers.values()];
  return items.flatMap((item) => {
    const viewer = viewers.find((candidate) => candidate.uid === item.uid);
    if (viewer === undefined) return [];
    const fields = { phone: viewer.phone ?? undefined, displayName: viewer.displayName ?? undefined };
    return (["phone", "displayName"] as const)
      .filter((field) => item[field] !== fields[field])
      .map(
        (field) => `uid ${item.uid} ${field} ${JSON.stringify(item[field])}, expected ${JSON.stringify(fields[field])}`,
      );
  });
}

export class DetailCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly params: { webinar: number; mode: PlaybackMode; sort: Sort; pageSize: number }) {}

  check(): boolean {
    return true;
  }

  async run(model: Model, real: Real): Promise<void> {
    const { webinar, mode, sort, pageSize } = this.params;
    const state: WebinarModel = model.merchants[0]!.webinars[webinar]!;
    const items: ViewerWatchRecord[] = [];
    let cursor: string | undefined;
    for (let page = 0; ; page += 1) {
      if (page === MAX_PAGES) throw new CheckFailure(`${MAX_PAGES} pages of pageSize ${pageSize} did not end`);
      const body = { ticketCode: real.merchants[0]!.ticketCodes[webinar]!, playbackMode: mode, sort, pageSize };
      const answer = await send(real, 0, "queryViewerWatch", cursor === undefined ? body : { ...body, cursor });
      if (liveGated(state, mode)) return expectError(answer, 409, ["WATCH_DATA_NOT_FINAL"]);
      expectSuccess(answer);
      const data = dataOf<ViewerWatchPage>(answer);
      if (data.items.length > pageSize)
        throw new CheckFailure(`a page of pageSize ${pageSize} holds ${data.items.length}`);
      items.push(...data.items);
      if (data.nextCursor === undefined) break;
      cursor = data.nextCursor;
    }
    const viewers = externalIdsByUid(model.merchants[0]!);
    ensureExactly(items, expectedRecords({ sessions: state.sessions, viewers }, mode), sort);
    const problems = viewerFieldProblems(model, items);
    ensure(problems.length === 0, `the ${mode} detail walked to its end: ${problems.slice(0, 3).join("; ")}`);
    note(real, { walked: state.label, mode, records: items.length });
  }

  toString(): string {
    const { webinar, mode, sort, pageSize } = this.params;
    return `detail(${webinarLabel(webinar)}, ${mode}, ${sort}, pages of ${pageSize})`;
  }
}
