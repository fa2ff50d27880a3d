/**
 * The setup hooks of a command line run: a module of the server's authors (`--setup`), or the reference server's
 * admin API (`--admin-url` and `--admin-token`). A module's default export (or its export `setup`) is the hooks
 * object, or a function that returns it, called with the environment, so the module can read its own settings.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError, type Environment } from "@org/webinar-internal/command-line";
import { referenceAdminSetup } from "../reference-admin";
import type { ConformanceSetup } from "../setup-hooks";

export interface SetupFlags {
  setupModule: string | undefined;
  adminUrl: string | undefined;
  adminToken: string | undefined;
  ticketLifetimeSeconds: number | undefined;
}

type SetupExport = ConformanceSetup | ((context: { env: Environment }) => ConformanceSetup | Promise<ConformanceSetup>);

async function fromModule(specifier: string, env: Environment): Promise<ConformanceSetup> {
  let loaded: { default?: SetupExport; setup?: SetupExport };
  try {
    loaded = (await import(pathToFileURL(resolve(specifier)).href)) as typeof loaded;
  } catch (error) {
    throw new UsageError(`--setup ${specifier}: ${(error as Error).message}`);
  }
  const exported = loaded.default ?? loaded.setup;
  if (exported === undefined)
    throw new UsageError(`--setup ${specifier}: the module exports neither default nor setup`);
  const setup = typeof exported === "function" ? await exported({ env }) : exported;
  if (typeof setup !== "object" || setup === null)
    throw new UsageError(`--setup ${specifier}: the setup is not an object of hooks`);
  return setup;
}

/** The hooks the flags name, or `undefined` for none; a {@link UsageError} for flags that do not go together. */
export async function loadSetup(flags: SetupFlags, env: Environment): Promise<ConformanceSetup | undefined> {
  const { setupModule, adminUrl, adminToken, ticketLifetimeSeconds } = flags;
  if (setupModule !== undefined && adminUrl !== undefined)
    throw new UsageError("--setup and --admin-url exclude each other: the admin API is the reference server's setup");
  // A token alone is no request for the hooks: the demo's credentials file carries one for every other use.
  if (adminUrl !== undefined && adminToken === undefined)
    throw new UsageError("--admin-url needs --admin-token (or WEBINAR_ADMIN_TOKEN)");
  let setup: ConformanceSetup | undefined;
  if (setupModule !== undefined) setup = await fromModule(setupModule, env);
  else if (adminUrl !== undefined) {
    try {
      setup = referenceAdminSetup({ adminUrl, adminToken: adminToken! });
    } catch (error) {
      throw new UsageError(`--admin-url: ${(error as Error).message}`);
    }
  }
  if (ticketLifetimeSeconds === undefined) return setup;
  return { ...setup, ticketLifetimeSeconds };
}
