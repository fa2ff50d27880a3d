/**
 * A local Verdaccio for the publish test: its config and storage in a temp folder, its uplink the registry npm is
 * configured with here (never a host written in the repository), `@org/*` served only from what is published to
 * it, a port chosen at run time, and a user whose token goes into a temp `.npmrc`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, freePort, runOk, startService, waitForHttp, type Service } from "./processes.ts";

export interface LocalRegistry {
  url: string;
  /** A user config holding the token; point `npm_config_userconfig` at it. */
  npmrc: string;
  stop: () => Promise<void>;
  log: () => string;
}

export async function startVerdaccio(dir: string, repoRoot: string): Promise<LocalRegistry> {
  mkdirSync(join(dir, "storage"), { recursive: true });
  const uplink = runOk("npm", ["config", "get", "registry"], { cwd: dir, env: cleanEnv() }).trim();
  const port = await freePort();
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
      "    max_users: 10",
      "uplinks:",
      "  upstream:",
      `    url: ${JSON.stringify(uplink)}`,
      "    timeout: 60s",
      "packages:",
      "  '@org/*':",
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    proxy: upstream",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const bin = join(repoRoot, "node_modules", "verdaccio", "bin", "verdaccio");
  const service: Service = startService(process.execPath, [bin, "--config", config, "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    env: cleanEnv(),
  });
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(`${url}-/ping`, service);

  const user = "release-test";
  const response = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: user, password: `pw-${port}-${Date.now()}`, type: "user", roles: [] }),
  });
  const answer = (await response.json()) as { token?: string };
  if (!response.ok || answer.token === undefined) {
    await service.stop();
    throw new Error(`could not create a Verdaccio user: ${response.status} ${JSON.stringify(answer)}`);
  }
  const npmrc = join(dir, "user.npmrc");
  writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${answer.token}\n`);
  return { url, npmrc, stop: service.stop, log: service.log };
}
