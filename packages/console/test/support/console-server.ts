/**
 * The reference server as an operator runs it (the `webinar-server` command of @org/webinar-server, as built,
 * which serves the built console at /console/), started by the launcher every package's tests share
 * (@org/webinar-test-support), and the admin API calls the console's tests need: a merchant, its key and a console
 * person's invite.
 */
import type { components } from "@org/webinar-admin-contract";
import { adminData, createAdminMerchant } from "@org/webinar-test-support/admin-client";
import { type ServerProcess, startServerProcess } from "@org/webinar-test-support/server-process";
import { packageBin } from "@org/webinar-test-support/package-bin";

export type ConsoleServer = ServerProcess;
export type ConsoleRole = NonNullable<components["schemas"]["CreateConsoleUserRequest"]["role"]>;

// The workspace's root declares @org/webinar-server for these tests: the server depends on this app, whose built
// files it carries, so this app cannot depend on the server without a circle.
const SERVER_MAIN = packageBin(import.meta.url, "@org/webinar-server", "webinar-server");

/**
 * Starts the built server on `database` (on "postgres", a database of its own, dropped at stop). With `demo`, the
 * server creates the demo merchant, webinar and console invite of a first start and prints them.
 */
export function startConsoleServer(
  database: "pglite" | "postgres",
  options: { demo?: boolean } = {},
): Promise<ConsoleServer> {
  return startServerProcess({
    command: [process.execPath, SERVER_MAIN],
    database: database === "postgres" ? "postgres" : "embedded",
    label: "console",
    env: { WEBINAR_SEED_DEMO: options.demo === true ? "true" : "false", WEBINAR_LOG_LEVEL: "warn" },
  });
}

/** A merchant made through the admin API, with an API key for its backend, a webinar and console persons' invites. */
export async function consoleMerchant(
  server: ConsoleServer,
  name: string,
): Promise<{
  merchantId: string;
  apiKey: string;
  secret: string;
  invite(email: string, role?: ConsoleRole): Promise<string>;
}> {
  const { merchantId, apiKey, secret } = await createAdminMerchant(server.admin, { name });
  return {
    merchantId,
    apiKey,
    secret,
    async invite(email, role) {
      const { inviteUrl } = await adminData(
        server.admin.POST("/admin/v1/merchants/{merchantId}/console-users", {
          params: { path: { merchantId } },
          body: { email, ...(role === undefined ? {} : { role }) },
        }),
      );
      // The invite names the server's public origin; the test opens it on the address it started the server at.
      const { pathname, hash } = new URL(inviteUrl);
      return `${server.url}${pathname}${hash}`;
    },
  };
}
