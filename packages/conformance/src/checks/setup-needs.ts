/**
 * Checks that need setup hooks: they run with the hooks they name, or are skipped with a reason that names the
 * missing ones. A hook that rejects fails the check with the hook's name and message, since the kit cannot tell a
 * broken setup from a broken server.
 */
import { CheckFailure, skip, type Skip } from "../check";
import type { RunContext } from "../run-context";
import type { ConformanceSetup, SetupHookName, SetupMerchant } from "../setup-hooks";

/** The hooks a check needs, all present. */
export type HooksOf<Name extends SetupHookName> = Required<Pick<ConformanceSetup, Name>>;

type CheckRun = (context: RunContext) => Promise<string | undefined | Skip>;

export const SETUP_HINT = "pass --setup <module> (or --admin-url and --admin-token for the reference server)";

function guarded<Name extends SetupHookName>(setup: ConformanceSetup, names: readonly Name[]): HooksOf<Name> {
  const hooks = {} as Record<Name, unknown>;
  for (const name of names) {
    const hook = setup[name] as (...args: unknown[]) => Promise<unknown>;
    hooks[name] = async (...args: unknown[]) => {
      try {
        return await hook.apply(setup, args);
      } catch (error) {
        throw new CheckFailure(
          `the setup hook ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    };
  }
  return hooks as HooksOf<Name>;
}

/** A check's run that needs `names`: skipped, naming the missing hooks, when the setup lacks any of them. */
export function withSetup<Name extends SetupHookName>(
  names: readonly Name[],
  run: (context: RunContext, hooks: HooksOf<Name>) => Promise<string | undefined | Skip>,
): CheckRun {
  return async (context) => {
    const missing = names.filter((name) => typeof context.options.setup[name] !== "function");
    if (missing.length > 0)
      return skip(`needs the setup hook${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: ${SETUP_HINT}`);
    return run(context, guarded(context.options.setup, names));
  };
}

/** A merchant of the run's own for `purpose`, created once by the setup and shared by the checks that name it. */
export function ownMerchant(
  context: RunContext,
  hooks: HooksOf<"createMerchant">,
  purpose: string,
): Promise<SetupMerchant> {
  return context.once(`merchant:${purpose}`, () => hooks.createMerchant());
}
