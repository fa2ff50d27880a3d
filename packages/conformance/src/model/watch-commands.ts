/**
 * Watch data as model commands: replay sessions imported through the setup hook, the REPLAY overview (exactly the
 * sessions' viewers, sessions and seconds, registered and anonymous; another merchant's webinar is 404
 * `WEBINAR_NOT_FOUND`) and the REPLAY detail walked page by page to the end (one record per viewer who watched,
 * with the viewer's phone and name as they are now, in the sort's order).
 */
import type fc from "fast-check";
import type { Sort, ViewerWatchPage, ViewerWatchRecord, WatchOverview } from "@org/webinar-types";
import { CheckFailure, dataOf, expectError, expectSuccess } from "../check";
import { ensureSorted } from "../checks/pagination";
import { expectedReplayOverview, expectedReplayRecords, type ExpectedRecord, type Model } from "./model";
import { note, send, type Real } from "./real";

/** Pages a walk may take before it is judged endless. */
const MAX_PAGES = 50;

export class SessionCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly params: { webinar: number; key: string | undefined; watchSeconds: number }) {}

  check(model: Model): boolean {
    return this.params.key === undefined || model.merchants[0]!.viewers.has(this.params.key);
  }

  async run(model: Model, real: Real): Promise<void> {
    const { webinar, key, watchSeconds } = this.params;
    const merchant = model.merchants[0]!;
    const subject = key === undefined ? { anonymousId: "model-anonymous" } : { uid: merchant.viewers.get(key)!.uid };
    const startedAt = new Date(
      real.context.clock.now() - 3_600_000 + merchant.webinars[webinar]!.sessions.length * 60_000,
    );
    await real.context.options.setup.recordPlaybackSessions!(real.merchants[0]!.ticketCodes[webinar]!, [
      {
        subject,
        mode: "REPLAY",
        watchSeconds,
        deviceType: "DESKTOP",
        protocol: "HLS",
        startedAt: startedAt.toISOString(),
      },
    ]);
    note(real, { setup: "recordPlaybackSessions", webinar: merchant.webinars[webinar]!.label, subject, watchSeconds });
    merchant.webinars[webinar]!.sessions.push({
      subject: key === undefined ? { anonymousId: "model-anonymous" } : { key },
      watchSeconds,
    });
  }

  toString(): string {
    return `session(A/W${this.params.webinar + 1}, ${this.params.key ?? "anonymous"}, ${this.params.watchSeconds} s)`;
  }
}

export class OverviewCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly params: { asMerchant: number; webinar: number }) {}

  check(): boolean {
    return true;
  }

  async run(model: Model, real: Real): Promise<void> {
    const { asMerchant, webinar } = this.params;
    const ticketCode = real.merchants[0]!.ticketCodes[webinar]!;
    const answer = await send(real, asMerchant, "getWatchOverview", { ticketCode, playbackMode: "REPLAY" });
    if (asMerchant !== 0) return expectError(answer, 404, ["WEBINAR_NOT_FOUND"]);
    expectSuccess(answer);
    const overview = dataOf<WatchOverview>(answer);
    const expected = expectedReplayOverview(model.merchants[0]!.webinars[webinar]!);
    const seen = {
      all: overview.all,
      registered: overview.registered,
      anonymous: overview.anonymous,
      liveWatchSeconds: overview.liveWatchSeconds,
      replayWatchSeconds: overview.replayWatchSeconds,
    };
    if (JSON.stringify(seen) !== JSON.stringify(expected))
      throw new CheckFailure(`the overview is ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
  }

  toString(): string {
    return `overview(as ${"AB"[this.params.asMerchant]}, A/W${this.params.webinar + 1})`;
  }
}

const FIELDS = [
  "externalUserId",
  "phone",
  "displayName",
  "totalWatchSeconds",
  "replayWatchSeconds",
  "liveWatchSeconds",
  "sessionCount",
] as const;

function recordProblems(item: ViewerWatchRecord, expected: ExpectedRecord | undefined): string[] {
  if (expected === undefined) return [`uid ${item.uid} has no replay session`];
  const wrong = FIELDS.filter((field) => item[field] !== expected[field]);
  return wrong.map(
    (field) => `uid ${item.uid} ${field} ${JSON.stringify(item[field])}, expected ${JSON.stringify(expected[field])}`,
  );
}

export class DetailCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly params: { webinar: number; sort: Sort; pageSize: number }) {}

  check(): boolean {
    return true;
  }

  async run(model: Model, real: Real): Promise<void> {
    const { webinar, sort, pageSize } = this.params;
    const items: ViewerWatchRecord[] = [];
    let cursor: string | undefined;
    for (let page = 0; ; page += 1) {
      if (page === MAX_PAGES) throw new CheckFailure(`${MAX_PAGES} pages of pageSize ${pageSize} did not end`);
      const body = { ticketCode: real.merchants[0]!.ticketCodes[webinar]!, playbackMode: "REPLAY", sort, pageSize };
      const answer = await send(real, 0, "queryViewerWatch", cursor === undefined ? body : { ...body, cursor });
      expectSuccess(answer);
      const data = dataOf<ViewerWatchPage>(answer);
      if (data.items.length > pageSize)
        throw new CheckFailure(`a page of pageSize ${pageSize} holds ${data.items.length}`);
      items.push(...data.items);
      if (data.nextCursor === undefined) break;
      cursor = data.nextCursor;
    }
    const expected = expectedReplayRecords(model.merchants[0]!, model.merchants[0]!.webinars[webinar]!);
    const problems = items.flatMap((item) => recordProblems(item, expected.get(item.uid)));
    const seen = new Set(items.map((item) => item.uid));
    if (seen.size !== items.length) problems.push(`${items.length - seen.size} records come twice`);
    for (const uid of expected.keys()) if (!seen.has(uid)) problems.push(`uid ${uid} watched but has no record`);
    if (problems.length > 0) throw new CheckFailure(`the detail walked to its end: ${problems.slice(0, 3).join("; ")}`);
    ensureSorted(sort, items);
    note(real, { walked: model.merchants[0]!.webinars[webinar]!.label, records: items.length });
  }

  toString(): string {
    return `detail(A/W${this.params.webinar + 1}, ${this.params.sort}, pages of ${this.params.pageSize})`;
  }
}
