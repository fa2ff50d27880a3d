/**
 * Model-based testing with fast-check's commands: random sequences of upserts, login tickets (the merchant's own
 * viewers and the other merchant's uids), ticket exchanges, webinar states, lives started, ended and finalized,
 * imported live and replay sessions, overviews and detail walks of every mode, each run against two fresh merchants of the setup and each answer compared with the model
 * (model/model.ts) of what the API must hold. It finds what no fixed check names: rules that break only in
 * combination. A failing sequence is shrunk to the shortest that still fails and reported as a script: the seed
 * and fast-check's path, then one JSON line per request; `modelPath` with the seed replays it. `modelRuns` sequences
 * at most, within `modelSeconds`.
 */
import fc from "fast-check";
import { CheckFailure, skip, type Check } from "../check";
import { emptyModel, type Model } from "../model/model";
import { createReal, WEBINARS_PER_MERCHANT, type Real } from "../model/real";
import { ExchangeCommand, IssueTicketCommand, WebinarStateCommand } from "../model/ticket-commands";
import { NAMES, UpsertCommand } from "../model/viewer-commands";
import { DetailCommand, LiveCommand, OverviewCommand, SessionCommand } from "../model/watch-commands";
import type { RunContext } from "../run-context";
import { withSetup } from "./setup-needs";
import { ticketExchange } from "./ticket-exchange";

const MAX_COMMANDS = 24;

type Arbitraries = Array<fc.Arbitrary<fc.AsyncCommand<Model, Real>>>;

const merchantIndex = fc.constantFrom(0, 1);
/** Mostly the first merchant, so its viewers meet each other often; the second one's for the cross-merchant rules. */
const mostlyFirst = fc.oneof({ arbitrary: fc.constant(0), weight: 4 }, { arbitrary: fc.constant(1), weight: 1 });
/** Few ids (and two phones), so sequences often reuse them: interactions need the same viewer and phone twice. */
const key = fc.oneof(
  { arbitrary: fc.constantFrom("e1", "e2"), weight: 4 },
  { arbitrary: fc.constant("e3"), weight: 1 },
);
/** How often each kind of command is drawn beside the others (fast-check draws among its arbitraries evenly). */
const UPSERT_WEIGHT = 8;

function viewerAndTicketCommands(context: RunContext): Arbitraries {
  const upsert = fc
    .record({
      merchant: mostlyFirst,
      key,
      phone: fc.oneof(
        { arbitrary: fc.constantFrom(0, 1), weight: 3 },
        { arbitrary: fc.constantFrom("keep" as const, "blank" as const), weight: 1 },
      ),
      name: fc.oneof(fc.constantFrom(...NAMES), fc.constantFrom(null, "keep" as const)),
    })
    .map((params) => new UpsertCommand(params));
  const commands: Arbitraries = [
    ...Array.from({ length: UPSERT_WEIGHT }, () => upsert),
    fc
      .record({ merchant: merchantIndex, key, othersViewer: fc.boolean(), webinar: fc.constantFrom(0, 1) })
      .map((params) => new IssueTicketCommand(params)),
  ];
  if (ticketExchange(context) !== undefined)
    commands.push(fc.nat({ max: 20 }).map((pick) => new ExchangeCommand(pick)));
  if (context.options.setup.setWebinarState !== undefined)
    commands.push(
      fc
        .record({ merchant: merchantIndex, webinar: fc.constantFrom(0, 1), published: fc.boolean() })
        .map((params) => new WebinarStateCommand(params)),
    );
  return commands;
}

function watchCommands(context: RunContext): Arbitraries {
  const { setup } = context.options;
  const webinar = fc.constantFrom(0, 1);
  const mode = fc.constantFrom("LIVE", "REPLAY", "ALL" as const);
  const commands: Arbitraries = [
    fc.record({ asMerchant: merchantIndex, webinar, mode }).map((params) => new OverviewCommand(params)),
  ];
  const live = setup.changeLive !== undefined && setup.finalizeLive !== undefined;
  if (live) {
    const steps = fc.record({
      webinar,
      steps: fc.integer({ min: 1, max: 3 }),
      end: fc.constantFrom("END", "CANCEL", "FAIL" as const),
    });
    // Twice: a live takes three steps to reach final data, and the reads after each step are the point.
    commands.push(...Array.from({ length: 2 }, () => steps.map((params) => new LiveCommand(params))));
  }
  if (setup.recordPlaybackSessions === undefined) return commands;
  commands.push(
    fc
      .record({
        webinar,
        mode: live ? fc.constantFrom("LIVE", "REPLAY" as const) : fc.constant("REPLAY" as const),
        key: fc.option(key, { nil: undefined }),
        watchSeconds: fc.integer({ min: 1, max: 900 }),
      })
      .map((params) => new SessionCommand(params)),
    fc
      .record({
        webinar,
        mode,
        sort: fc.constantFrom("WATCH_SECONDS_DESC", "LAST_WATCHED_DESC", "FIRST_WATCHED_ASC" as const),
        pageSize: fc.integer({ min: 1, max: 3 }),
      })
      .map((params) => new DetailCommand(params)),
  );
  return commands;
}

/**
 * What replays a failing sequence with its seed: fast-check's path of the run, then `@` and the path of the commands
 * within it (fast-check prints that one in the sequence, as `replayPath`).
 */
function replayTokenOf(details: fc.RunDetails<[Iterable<fc.AsyncCommand<Model, Real>>]>): string {
  const commands = /\/\*replayPath="([^"]*)"\*\//.exec(String(details.counterexample?.[0]))?.[1];
  return commands === undefined ? String(details.counterexamplePath) : `${details.counterexamplePath}@${commands}`;
}

/** The shrunk failing sequence as a script to replay by hand or with the seed. */
function script(
  details: fc.RunDetails<[Iterable<fc.AsyncCommand<Model, Real>>]>,
  seed: number,
  lines: readonly string[],
): string {
  const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const token = replayTokenOf(details);
  return [
    `seed ${seed}, path ${token} (replay with --seed ${seed} --model-path ${token} --only model), shrunk ${details.numShrinks} times: ${reason}`,
    `commands: ${String(details.counterexample?.[0])}`,
    ...lines,
  ].join("\n");
}

export const modelBasedChecks: Check[] = [
  {
    id: "model.sequences",
    title:
      "random sequences of upserts, tickets, exchanges, webinar states, lives, sessions, overviews and detail walks -> every answer as the model of the spec's rules says",
    run: withSetup(["createMerchant", "createWebinar"], async (context, hooks) => {
      const { seed, modelRuns, modelSeconds, modelPath } = context.options;
      if (modelRuns === 0) return skip("modelRuns is 0");
      const [runPath, commandsPath] = modelPath?.split("@") ?? [];
      const commands = fc.commands([...viewerAndTicketCommands(context), ...watchCommands(context)], {
        maxCommands: MAX_COMMANDS,
        // Longer sequences than fast-check draws by default: interactions take several steps.
        size: "+1",
        ...(commandsPath === undefined ? {} : { replayPath: commandsPath }),
      });
      const exchange = ticketExchange(context);
      // The script of the last failing sequence: after shrinking, the smallest.
      let failing: readonly string[] = [];
      const property = fc.asyncProperty(commands, async (sequence) => {
        const real = await createReal(context, hooks, exchange);
        try {
          await fc.asyncModelRun(() => ({ model: emptyModel(WEBINARS_PER_MERCHANT), real }), sequence);
        } catch (error) {
          failing = real.script;
          throw error;
        }
      });
      const details = await fc.check(property, {
        seed,
        numRuns: modelRuns,
        interruptAfterTimeLimit: modelSeconds * 1000,
        markInterruptAsFailure: false,
        // A printed path replays its sequence alone.
        ...(runPath === undefined ? {} : { path: runPath }),
      });
      if (details.failed) throw new CheckFailure(script(details, seed, failing));
      return `seed ${seed}, ${details.numRuns} sequences${details.interrupted ? ` (stopped at the ${modelSeconds} s limit)` : ""}`;
    }),
  },
];
