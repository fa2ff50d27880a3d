/**
 * Live data through a webinar's live, made with the setup hooks in a webinar of the run's own: the `LIVE`
 * overview's `dataState` is `PROVISIONAL` while the live runs, `FINALIZING` once it ended, was cancelled or failed,
 * and `FINAL` once finalized; the detail query of `LIVE` and `ALL` is 409 `WATCH_DATA_NOT_FINAL` from the start
 * until live data is final, then served, and `REPLAY` is never gated. The kit judges by what it did to the live,
 * not by the state the server reports about itself.
 */
import type { DataState, PlaybackMode, WatchOverview } from "@org/webinar-types";
import type { Answer } from "../answer";
import { dataOf, ensure, expectError, expectSuccess, type Check } from "../check";
import type { RunContext } from "../run-context";
import type { LiveAction } from "../setup-hooks";
import { ownMerchant, withSetup, type HooksOf } from "./setup-needs";

type LiveHooks = HooksOf<"createMerchant" | "createWebinar" | "changeLive" | "finalizeLive">;
const LIVE_HOOKS = ["createMerchant", "createWebinar", "changeLive", "finalizeLive"] as const;

type Stage = "live" | "ended" | "final";

/** What the merchant saw at one stage: the LIVE overview's dataState and the detail query of each mode. */
interface Observation {
  dataState: DataState | undefined;
  overview: Answer;
  queries: Record<PlaybackMode, Answer>;
}

async function observe(context: RunContext, credentials: RunContext["options"]["main"], ticketCode: string) {
  const overview = await context.call({
    operationId: "getWatchOverview",
    body: { ticketCode, playbackMode: "LIVE" },
    credentials,
  });
  const dataState = overview.status === 200 ? dataOf<WatchOverview>(overview).dataState : undefined;
  const queries = {} as Record<PlaybackMode, Answer>;
  for (const playbackMode of ["LIVE", "ALL", "REPLAY"] as const)
    queries[playbackMode] = await context.call({
      operationId: "queryViewerWatch",
      body: { ticketCode, playbackMode, sort: "WATCH_SECONDS_DESC", pageSize: 10 },
      credentials,
    });
  return { dataState, overview, queries };
}

/** A webinar of the run's own taken through START, `end` and finalization, observed at each stage, once. */
function liveRun(context: RunContext, hooks: LiveHooks, end: Exclude<LiveAction, "START">) {
  return context.once(`live-run:${end}`, async () => {
    const merchant = await ownMerchant(context, hooks, "live");
    const ticketCode = await hooks.createWebinar(merchant.merchantId, "PUBLISHED");
    const stages = {} as Record<Stage, Observation>;
    await hooks.changeLive(ticketCode, "START");
    stages.live = await observe(context, merchant.credentials, ticketCode);
    await hooks.changeLive(ticketCode, end);
    stages.ended = await observe(context, merchant.credentials, ticketCode);
    await hooks.finalizeLive(ticketCode);
    stages.final = await observe(context, merchant.credentials, ticketCode);
    return stages;
  });
}

const EXPECTED_STATE: Record<Stage, DataState> = { live: "PROVISIONAL", ended: "FINALIZING", final: "FINAL" };

const dataStateCheck = (end: Exclude<LiveAction, "START">): Check => ({
  id: `live.data-state.${end.toLowerCase()}`,
  title: `LIVE overview dataState: PROVISIONAL while live, FINALIZING after ${end}, FINAL once finalized`,
  run: withSetup(LIVE_HOOKS, async (context, hooks) => {
    const stages = await liveRun(context, hooks, end);
    for (const stage of ["live", "ended", "final"] as const) {
      expectSuccess(stages[stage].overview);
      const seen = stages[stage].dataState;
      ensure(
        seen === EXPECTED_STATE[stage],
        `after ${stage === "live" ? "START" : stage === "ended" ? end : "finalization"} dataState is ${seen}, expected ${EXPECTED_STATE[stage]}`,
      );
    }
    return "PROVISIONAL -> FINALIZING -> FINAL";
  }),
});

const gateCheck = (stage: Stage, title: string): Check => ({
  id: `live.gate.${stage}`,
  title,
  run: withSetup(LIVE_HOOKS, async (context, hooks) => {
    const { queries } = (await liveRun(context, hooks, "END"))[stage];
    for (const mode of ["LIVE", "ALL"] as const) {
      if (stage === "final") expectSuccess(queries[mode], `a success for ${mode} once live data is final`);
      else expectError(queries[mode], 409, ["WATCH_DATA_NOT_FINAL"]);
    }
    expectSuccess(queries.REPLAY, "a success for REPLAY, which is never gated");
    return undefined;
  }),
});

export const liveDataStateChecks: Check[] = [
  dataStateCheck("END"),
  dataStateCheck("CANCEL"),
  dataStateCheck("FAIL"),
  gateCheck("live", "while a live runs: detail LIVE and ALL -> 409 WATCH_DATA_NOT_FINAL, REPLAY -> 200"),
  gateCheck("ended", "after the live ended, before finalization: LIVE and ALL -> 409 WATCH_DATA_NOT_FINAL"),
  gateCheck("final", "once live data is FINAL: detail LIVE and ALL -> 200"),
];
