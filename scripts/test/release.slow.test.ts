/**
 * The release flow end to end, against a local Verdaccio started here: a fresh clone of this repository runs
 * `pnpm release:version` and `pnpm release:publish` exactly as CONTRIBUTING.md "Releasing" says (the dirty-tree
 * refusal first), then a fresh npm project installs every public package from that registry, loads each from ESM
 * and CommonJS, starts the reference server from the published server package's bin, makes a signed call
 * through openapi-fetch + the signing middleware, and checks that server with the published `webinar-conformance`. The repository itself is never modified: the version step runs
 * in the clone, and the registry and its token live in a temp folder.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, output, run, runOk } from "./support/processes.ts";
import { serverEnv, signedCallScript, startReferenceServer, type ReferenceServer } from "./support/reference-server.ts";
import { ensureRuntime } from "./support/runtimes.ts";
import { startVerdaccio, type LocalRegistry } from "./support/verdaccio.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const work = mkdtempSync(join(tmpdir(), "webinar-release-test-"));
const clone = join(work, "repo");
const consumer = join(work, "consumer");

const publicPackages = readdirSync(join(repoRoot, "packages"))
  .map(
    (folder) =>
      JSON.parse(readFileSync(join(repoRoot, "packages", folder, "package.json"), "utf8")) as {
        name: string;
        private?: boolean;
      },
  )
  .filter((manifest) => manifest.private !== true)
  .map((manifest) => manifest.name)
  .sort();

let registry: LocalRegistry | undefined;
let server: ReferenceServer | undefined;
let releasedVersion = "";
const registryEnv = (extra: NodeJS.ProcessEnv = {}) =>
  cleanEnv({ npm_config_registry: registry!.url, npm_config_userconfig: registry!.npmrc, ...extra });

beforeAll(async () => {
  registry = await startVerdaccio(join(work, "registry"), repoRoot);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe("pnpm release:version and release:publish from a fresh clone, to a local registry", () => {
  it("versions the fixed group from the changesets and writes each package's changelog", () => {
    runOk("git", ["clone", "--quiet", "--no-hardlinks", repoRoot, clone], { cwd: work });
    runOk("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", "--reporter=silent"], {
      cwd: clone,
      env: cleanEnv(),
      timeoutMs: 600_000,
    });
    // Whatever is pending in the repository (nothing, right after a release), the clone gets one patch changeset
    // of its own, so the test always cuts a real next release the way CONTRIBUTING.md says.
    const frontMatter = publicPackages.map((name) => `"${name}": patch`).join("\n");
    writeFileSync(
      join(clone, ".changeset", "release-test.md"),
      `---\n${frontMatter}\n---\n\nA release cut by the release test.\n`,
    );
    runOk("pnpm", ["release:version"], { cwd: clone, env: cleanEnv() });
    const versions = publicPackages.map((name) => {
      const folder = name.replace("@org/webinar-", "");
      const manifest = JSON.parse(readFileSync(join(clone, "packages", folder, "package.json"), "utf8")) as {
        version: string;
      };
      expect(readFileSync(join(clone, "packages", folder, "CHANGELOG.md"), "utf8")).toContain(`## ${manifest.version}`);
      return manifest.version;
    });
    releasedVersion = versions[0]!;
    // The spec just released becomes the one `pnpm check:api-changes` compares with.
    expect(readFileSync(join(clone, "spec", "openapi.released.yaml"), "utf8")).toContain(
      readFileSync(join(clone, "spec", "openapi.yaml"), "utf8"),
    );
    expect(new Set(versions)).toEqual(new Set([releasedVersion]));
    const specMajor = /^info:\n(?: {2}.*\n)*? {2}version: (\d+)\./m.exec(
      readFileSync(join(clone, "spec", "openapi.yaml"), "utf8"),
    )?.[1];
    expect(releasedVersion.split(".")[0]).toBe(specMajor);
    console.log(`release test: versioned ${publicPackages.length} packages to ${releasedVersion}`);
  }, 600_000);

  it("refuses to publish from a dirty tree, naming the changes", () => {
    const result = run("pnpm", ["release:publish"], { cwd: clone, env: registryEnv() });
    expect(result.status).toBe(1);
    expect(output(result)).toContain("release:publish refuses to publish from a dirty git tree");
    // The versioning left these changes; the refusal names them (the first 20, then how many more).
    const changes = runOk("git", ["status", "--porcelain", "--untracked-files=normal"], { cwd: clone })
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes.slice(0, 20)) expect(output(result)).toContain(`  ${change}`);
    if (changes.length > 20) expect(output(result)).toContain(`... and ${changes.length - 20} more`);
    const storage = readdirSync(join(work, "registry", "storage"));
    expect(storage.filter((entry) => entry.startsWith("@org"))).toEqual([]);
  });

  it("publishes every public package once the release commit is made", () => {
    runOk("git", ["add", "-A"], { cwd: clone });
    runOk(
      "git",
      [
        "-c",
        "user.name=Release Test",
        "-c",
        "user.email=release@test.invalid",
        "commit",
        "-qm",
        `Release ${releasedVersion}`,
      ],
      { cwd: clone },
    );
    // The package checks run Node 24 too: hand them the repository's cached one instead of a download into the clone.
    const node24 = ensureRuntime(repoRoot, "node24", "node@24", "node_modules/.bin/node");
    const env = registryEnv(node24.path === undefined ? {} : { NODE24_PATH: node24.path });
    const result = run("pnpm", ["release:publish"], { cwd: clone, env, timeoutMs: 900_000 });
    if (result.status !== 0)
      throw new Error(`release:publish failed:\n${output(result).split("\n").slice(-80).join("\n")}`);
    // CI runs the package checks only here, through release:publish.
    expect(output(result)).toContain("release check passed");
    for (const name of publicPackages) {
      const manifest = JSON.parse(
        runOk("npm", ["view", `${name}@${releasedVersion}`, "--json"], { cwd: work, env: registryEnv() }),
      ) as {
        version: string;
        license: string;
        dependencies?: Record<string, string>;
      };
      expect(manifest.version).toBe(releasedVersion);
      expect(manifest.license).toBe("MIT");
      // pnpm publish replaced workspace:* by the released version.
      for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
        if (dependency.startsWith("@org/")) expect(`${dependency}@${range}`).toBe(`${dependency}@${releasedVersion}`);
        expect(range).not.toContain("workspace:");
      }
    }
    const tags = runOk("git", ["tag", "--list"], { cwd: clone }).trim().split("\n").sort();
    expect(tags).toEqual(publicPackages.map((name) => `${name}@${releasedVersion}`));
  }, 900_000);
});

describe("a fresh npm project using the published packages", () => {
  it("installs every public package from the registry, with LICENSE in each", () => {
    mkdirSync(consumer, { recursive: true });
    writeFileSync(
      join(consumer, "package.json"),
      `${JSON.stringify({ name: "consumer", version: "0.0.0", private: true }, null, 2)}\n`,
    );
    runOk(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        "openapi-fetch",
        ...publicPackages.map((name) => `${name}@${releasedVersion}`),
      ],
      { cwd: consumer, env: registryEnv(), timeoutMs: 600_000 },
    );
    for (const name of publicPackages) {
      expect(readFileSync(join(consumer, "node_modules", name, "LICENSE"), "utf8")).toContain(
        "Copyright (c) 2026 The Webinar Open API authors",
      );
    }
  }, 600_000);

  it("loads each package from ESM and from CommonJS", () => {
    const names = JSON.stringify(publicPackages);
    writeFileSync(
      join(consumer, "load.mjs"),
      `for (const name of ${names}) console.log(name, Object.keys(await import(name)).filter((k) => k !== "default").length);\n`,
    );
    writeFileSync(
      join(consumer, "load.cjs"),
      `for (const name of ${names}) console.log(name, Object.keys(require(name)).filter((k) => k !== "default").length);\n`,
    );
    for (const file of ["load.mjs", "load.cjs"]) {
      const lines = runOk(process.execPath, [file], { cwd: consumer, env: cleanEnv() }).trim().split("\n");
      expect(lines.map((line) => line.split(" ")[0])).toEqual(publicPackages);
      for (const line of lines) expect(Number(line.split(" ")[1])).toBeGreaterThan(0);
    }
  });

  it("starts the reference server from the published bin and makes a signed openapi-fetch call to it", async () => {
    server = await startReferenceServer({
      command: [join(consumer, "node_modules", ".bin", "webinar-server")],
      cwd: consumer,
      dataDir: join(work, "server-data"),
    });
    for (const format of ["esm", "cjs"] as const) {
      const file = join(consumer, `signed-call.${format === "esm" ? "mjs" : "cjs"}`);
      writeFileSync(file, signedCallScript(format));
      const answer = JSON.parse(runOk(process.execPath, [file], { cwd: consumer, env: serverEnv(server) })) as {
        status: number;
        uid: number;
        created: boolean;
      };
      expect(answer).toEqual({ status: 200, uid: expect.any(Number), created: true });
    }
  }, 180_000);

  it("the published server serves the merchant console: its page on /console/ and deep links, its files", async () => {
    for (const path of ["/console/", "/console/invite", "/console/webinars/wbn-anything"]) {
      const page = await fetch(`${server!.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(page.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      const html = await page.text();
      const script = /<script[^>]+src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script, `${path} loads its script from /console/assets/`).toBeDefined();
      const asset = await fetch(`${server!.url}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("cache-control")).toContain("max-age=31536000");
    }
  }, 60_000);

  it("the published webinar-conformance bin passes against the published server", () => {
    const conformance = runOk(
      join(consumer, "node_modules", ".bin", "webinar-conformance"),
      ["--base-url", server!.url, "--api-key", server!.apiKey, "--api-secret", server!.secret],
      { cwd: consumer, env: cleanEnv({ WEBINAR_TICKET_CODE: server!.ticketCode }), timeoutMs: 120_000 },
    );
    expect(conformance).toMatch(/^(\d+) checks: \1 passed, 0 failed, \d+ skipped in [\d.]+ s$/m);
  }, 180_000);
});
