/**
 * Release check: proves each public package works as published, from its packed tarball, not from the
 * workspace. `pnpm release:check` builds first, then this script, for every package under `packages/*`
 * that is not `"private": true`:
 *
 * 1. `pnpm pack` (which rewrites `workspace:*` to real versions) into a temp folder;
 * 2. publint (`--strict`: warnings fail too) and @arethetypeswrong/cli (profile `strict`: node10,
 *    node16-cjs, node16-esm, bundler) on the tarball;
 * 3. installs all tarballs with npm into a consumer project outside the workspace, then for every
 *    entry point in the package's `exports` imports it from ESM and requires it from CommonJS, under
 *    the current Node and under Node 24, and checks both expose the same non-empty list of names.
 *
 * Usage: `tsx scripts/release-check.ts [package-dir ...]` (no argument: every public package).
 * `NODE24_PATH` points at a Node 24 binary; otherwise npm's `node@24` is installed once into
 * `node_modules/.cache/node24`. `--keep` leaves the temp folder in place for inspection.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { packPackage as packTarball } from "./lib/pack.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const node24CacheDir = join(repoRoot, "node_modules", ".cache", "runtimes", "node24");
/** Files every public tarball carries beside its code, so a user reading node_modules finds them. */
const SHIPPED_DOCUMENTS = ["package/README.md", "package/CHANGELOG.md", "package/LICENSE"];
/** Files a package must carry beyond those: the server serves the merchant console from its own package. */
const SHIPPED_FILES: Readonly<Record<string, readonly string[]>> = {
  "@org/webinar-server": ["package/dist/console/index.html", "package/console-openapi.yaml"],
};

type Status = "pass" | "fail" | "skip";

interface Check {
  status: Status;
  /** Shown in the table next to the mark. */
  note?: string;
  /** Printed under the table for failures. */
  output?: string;
}

interface PackageUnderCheck {
  name: string;
  version: string;
  dir: string;
  tarball?: string;
  entryPoints: string[];
  /** Executables the package installs (`bin`), as paths inside the package. */
  bins: string[];
  dependencies: string[];
  checks: Map<string, Check>;
}

interface Runtime {
  label: string;
  node: string;
}

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { keep: { type: "boolean", default: false } },
});

const workDir = mkdtempSync(join(tmpdir(), "webinar-release-check-"));
let exitCode = 0;
try {
  exitCode = await releaseCheck();
} catch (error) {
  console.error(`release check: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  if (options.keep) console.log(`\nkept ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });
}
process.exitCode = exitCode;

async function releaseCheck(): Promise<number> {
  const publicPackages = selectPackages(positionals.map((dir) => resolve(dir)));
  if (publicPackages.length === 0) throw new Error("no public package found under packages/*");
  console.log(`release check: ${publicPackages.map((pkg) => pkg.name).join(", ")}\n`);

  requireTool("publint", "publint@0.3.25");
  requireTool("attw", "@arethetypeswrong/cli@0.18.5");

  const tarballDir = join(workDir, "tarballs");
  mkdirSync(tarballDir);
  for (const pkg of publicPackages) {
    step(`pack ${pkg.name}`);
    pkg.checks.set("pack", packPackage(pkg, tarballDir));
    if (pkg.tarball === undefined) continue;
    step(`publint ${basename(pkg.tarball)}`);
    pkg.checks.set("publint", fromResult(pnpmExec(["publint", "run", pkg.tarball, "--strict"])));
    step(`attw ${basename(pkg.tarball)}`);
    pkg.checks.set("attw", checkTypes(pkg.tarball));
  }

  const current: Runtime = { label: `node ${process.versions.node.split(".")[0]}`, node: process.execPath };
  const runtimes: Runtime[] = [current];
  const runtimeColumns = current.label === "node 24" ? [current.label] : [current.label, "node 24"];
  const node24 = current.label === "node 24" ? { path: process.execPath } : findNode24();
  if (node24.path !== undefined && current.label !== "node 24") runtimes.push({ label: "node 24", node: node24.path });

  const packed = publicPackages.filter((pkg) => pkg.tarball !== undefined);
  step(`npm install ${packed.length} tarball(s) into a consumer project`);
  const consumerDir = join(workDir, "consumer");
  const install = installConsumer(
    consumerDir,
    packed.map((pkg) => pkg.tarball!),
  );

  for (const pkg of publicPackages) {
    for (const column of runtimeColumns) {
      const runtime = runtimes.find((candidate) => candidate.label === column);
      for (const format of ["esm", "cjs"] as const) {
        const key = `${format} ${column}`;
        if (pkg.tarball === undefined) pkg.checks.set(key, { status: "skip", note: "not packed" });
        else if (install.status !== "pass") pkg.checks.set(key, { status: "skip", note: "install failed" });
        else if (runtime === undefined) pkg.checks.set(key, { status: "fail", output: node24.error ?? "no Node 24" });
        else pkg.checks.set(key, loadEntryPoints(consumerDir, pkg, runtime, format));
      }
      const binKey = `bin ${column}`;
      if (pkg.bins.length === 0) continue;
      if (install.status !== "pass" || runtime === undefined)
        pkg.checks.set(binKey, { status: "skip", note: "not installed" });
      else pkg.checks.set(binKey, runBins(consumerDir, pkg, runtime));
    }
    // Both formats must offer the same names: a dual package whose halves differ breaks one consumer.
    for (const column of runtimeColumns) {
      const esm = pkg.checks.get(`esm ${column}`);
      const cjs = pkg.checks.get(`cjs ${column}`);
      if (esm?.status === "pass" && cjs?.status === "pass" && esm.output !== cjs.output) {
        cjs.status = "fail";
        cjs.output = `ESM and CommonJS export different names under ${column}:\nimport:\n${esm.output}\nrequire:\n${cjs.output}`;
      }
    }
  }

  const columns = [
    "pack",
    "publint",
    "attw",
    ...runtimeColumns.flatMap((column) => [`esm ${column}`, `cjs ${column}`, `bin ${column}`]),
  ];
  printTable(publicPackages, columns, install);
  const failures = printFailures(publicPackages, columns, install);
  console.log(failures === 0 ? "\nrelease check passed" : `\nrelease check FAILED: ${failures} failing check(s)`);
  return failures === 0 ? 0 : 1;
}

/**
 * Every public package under `packages/*`, or the given package folders plus the workspace packages
 * they depend on (the consumer install needs those tarballs too; npm would look for them on the registry).
 */
function selectPackages(dirs: string[]): PackageUnderCheck[] {
  const packagesDir = join(repoRoot, "packages");
  const workspace = readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packagesDir, entry.name, "package.json")))
    .map((entry) => readPackage(join(packagesDir, entry.name)))
    .filter((pkg): pkg is PackageUnderCheck => pkg !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  if (dirs.length === 0) return workspace;

  const selected = new Map<string, PackageUnderCheck>();
  const add = (pkg: PackageUnderCheck) => {
    if (selected.has(pkg.name)) return;
    selected.set(pkg.name, pkg);
    for (const dependency of pkg.dependencies) {
      const local = workspace.find((candidate) => candidate.name === dependency);
      if (local !== undefined) add(local);
    }
  };
  for (const dir of dirs) {
    const pkg = readPackage(dir);
    if (pkg === undefined) throw new Error(`${dir} is private; only public packages are released`);
    add(workspace.find((candidate) => candidate.dir === pkg.dir) ?? pkg);
  }
  return [...selected.values()];
}

function readPackage(dir: string): PackageUnderCheck | undefined {
  const manifestPath = join(dir, "package.json");
  if (!existsSync(manifestPath)) throw new Error(`${dir} has no package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    name?: string;
    version?: string;
    private?: boolean;
    exports?: unknown;
    bin?: string | Record<string, string>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  if (manifest.private === true) return undefined;
  if (manifest.name === undefined || manifest.version === undefined) {
    throw new Error(`${relative(repoRoot, manifestPath)} needs a name and a version to be published`);
  }
  return {
    name: manifest.name,
    version: manifest.version,
    dir,
    entryPoints: entryPoints(manifest.exports),
    bins: typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {}),
    dependencies: Object.keys({
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...manifest.optionalDependencies,
    }),
    checks: new Map(),
  };
}

/**
 * The subpaths a consumer can import: every key of `exports` except `./package.json` and patterns
 * (the design forbids `./*`), or just the root when `exports` is a plain target.
 */
function entryPoints(exportsField: unknown): string[] {
  if (typeof exportsField !== "object" || exportsField === null || Array.isArray(exportsField)) return ["."];
  const keys = Object.keys(exportsField);
  if (!keys.some((key) => key.startsWith("."))) return ["."]; // conditions only, e.g. {import, require}
  return keys.filter((key) => key !== "./package.json" && !key.includes("*"));
}

function packPackage(pkg: PackageUnderCheck, tarballDir: string): Check {
  const packed = packTarball(pkg.dir, tarballDir);
  if (packed.tarball === undefined) return { status: "fail", output: packed.output };
  pkg.tarball = packed.tarball;
  const listing = run("tar", ["-tzf", packed.tarball]);
  const entries = new Set(listing.stdout.split("\n"));
  const missing = [...SHIPPED_DOCUMENTS, ...(SHIPPED_FILES[pkg.name] ?? [])].filter((file) => !entries.has(file));
  if (listing.status !== 0 || missing.length > 0)
    return { status: "fail", output: `the tarball lacks ${missing.join(", ")}\n${outputOf(listing)}` };
  return { status: "pass" };
}

/**
 * attw on the tarball with the `strict` profile (node10, node16 from CJS and from ESM, bundler). attw
 * exits 0 for a package with no type declarations at all; every package here must ship them.
 */
function checkTypes(tarball: string): Check {
  const result = pnpmExec(["attw", tarball, "--profile", "strict", "--no-definitely-typed", "--format", "json"]);
  let report: {
    analysis?: { types?: unknown };
    problems?: Record<string, Array<{ entrypoint?: string; resolutionKind?: string }>>;
  };
  try {
    report = JSON.parse(result.stdout) as typeof report;
  } catch {
    return { status: "fail", output: outputOf(result) };
  }
  const problems = Object.entries(report.problems ?? {}).flatMap(([kind, list]) =>
    list.map(
      (problem) => `${kind}: "${problem.entrypoint ?? "?"}" under ${problem.resolutionKind ?? "every resolution"}`,
    ),
  );
  if (report.analysis?.types === false) problems.unshift("the package contains no type declarations");
  if (problems.length === 0 && result.status === 0) return { status: "pass" };
  return {
    status: "fail",
    output: [
      ...problems,
      "(see https://github.com/arethetypeswrong/arethetypeswrong.github.io/tree/main/docs/problems)",
    ].join("\n"),
  };
}

function installConsumer(consumerDir: string, tarballs: string[]): Check {
  mkdirSync(consumerDir, { recursive: true });
  writeFileSync(
    join(consumerDir, "package.json"),
    `${JSON.stringify({ name: "webinar-release-consumer", version: "0.0.0", private: true }, null, 2)}\n`,
  );
  if (tarballs.length === 0) return { status: "skip", note: "nothing packed" };
  // npm resolves each tarball's `@org/*` dependencies against the other tarballs of this install and
  // fetches third-party dependencies from the registry, exactly as a consumer would.
  const result = run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], {
    cwd: consumerDir,
    env: npmEnv(),
  });
  return result.status === 0 ? { status: "pass" } : { status: "fail", output: outputOf(result) };
}

function loadEntryPoints(consumerDir: string, pkg: PackageUnderCheck, runtime: Runtime, format: "esm" | "cjs"): Check {
  const specifiers = pkg.entryPoints.map((entry) => (entry === "." ? pkg.name : `${pkg.name}/${entry.slice(2)}`));
  const file = join(consumerDir, `${pkg.name.replace(/[@/]/g, "_")}.${format === "esm" ? "mjs" : "cjs"}`);
  // Each entry point must load and expose at least one named export (a JSON entry: at least one key); the names
  // are printed so the two formats can be compared. ESM imports JSON with an import attribute, as its default export.
  const importOf = (specifier: string) =>
    specifier.endsWith(".json")
      ? `(await import(${JSON.stringify(specifier)}, { with: { type: "json" } })).default`
      : `await import(${JSON.stringify(specifier)})`;
  const load =
    format === "esm"
      ? (specifier: string) => `[${JSON.stringify(specifier)}, Object.keys(${importOf(specifier)})]`
      : (specifier: string) => `[${JSON.stringify(specifier)}, Object.keys(require(${JSON.stringify(specifier)}))]`;
  writeFileSync(
    file,
    [
      `const loaded = [${specifiers.map(load).join(", ")}];`,
      `const names = loaded.map(([specifier, keys]) => [specifier, keys.filter((k) => k !== "default" && k !== "__esModule").sort()]);`,
      `const empty = names.filter(([, keys]) => keys.length === 0).map(([specifier]) => specifier);`,
      `if (empty.length > 0) { console.error("no named exports: " + empty.join(", ")); process.exit(1); }`,
      `console.log(names.map(([specifier, keys]) => specifier + ": " + keys.join(", ")).join("\\n"));`,
      "",
    ].join("\n"),
  );
  const result = run(runtime.node, [file], { cwd: consumerDir });
  if (result.status !== 0) return { status: "fail", output: outputOf(result) };
  const listing = result.stdout.trim();
  const count = listing.split("\n").reduce((total, line) => total + (line.split(": ")[1]?.split(", ").length ?? 0), 0);
  return { status: "pass", note: `${count}`, output: listing };
}

/** Every executable of the installed package answers `--help` with exit 0 (the shebang and ESM bin work). */
function runBins(consumerDir: string, pkg: PackageUnderCheck, runtime: Runtime): Check {
  for (const bin of pkg.bins) {
    // A bin that ignores --help and starts working (a server, say) must fail the check, not hang it.
    const result = run(runtime.node, [join(consumerDir, "node_modules", pkg.name, bin), "--help"], {
      cwd: consumerDir,
      timeoutMs: 30_000,
    });
    if (result.status !== 0)
      return { status: "fail", output: `${bin} --help exited ${result.status}\n${outputOf(result)}` };
  }
  return { status: "pass", note: `${pkg.bins.length}` };
}

/** A Node 24 binary: `NODE24_PATH`, else npm's `node@24` package, installed once into the repo's cache. */
function findNode24(): { path?: string; error?: string } {
  const candidate = process.env["NODE24_PATH"] ?? join(node24CacheDir, "node_modules", "node", "bin", "node");
  if (isNode24(candidate)) return { path: candidate };
  if (process.env["NODE24_PATH"] !== undefined) return { error: `NODE24_PATH=${candidate} is not a Node 24 binary` };
  step(`npm install node@24 into ${relative(repoRoot, node24CacheDir)} (once)`);
  mkdirSync(node24CacheDir, { recursive: true });
  // The package's preinstall script downloads the platform binary, so scripts must run here.
  const result = run(
    "npm",
    ["install", "--prefix", node24CacheDir, "--no-audit", "--no-fund", "--loglevel=error", "node@24"],
    {
      env: npmEnv(),
    },
  );
  if (result.status === 0 && isNode24(candidate)) return { path: candidate };
  return { error: `could not install node@24:\n${outputOf(result)}` };
}

function isNode24(path: string): boolean {
  if (!existsSync(path)) return false;
  return run(path, ["--version"]).stdout.trim().startsWith("v24.");
}

function requireTool(bin: string, dependency: string): void {
  const probe = pnpmExec([bin, "--version"]);
  if (probe.status !== 0) {
    throw new Error(`\`pnpm exec ${bin}\` is not available: add ${dependency} to the root devDependencies`);
  }
}

function pnpmExec(args: string[]): SpawnSyncReturns<string> {
  return run("pnpm", ["exec", ...args], { cwd: repoRoot });
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs, killSignal: "SIGKILL" as const }),
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}

// Settings pnpm exports to its child processes mean nothing to npm (it warns about them); drop them.
function npmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_(config_verify_deps_before_run|config_user_agent|command|execpath|lifecycle_|package_)/.test(key)) {
      delete env[key];
    }
  }
  return env;
}

function fromResult(result: SpawnSyncReturns<string>): Check {
  return result.status === 0 ? { status: "pass" } : { status: "fail", output: outputOf(result) };
}

function outputOf(result: SpawnSyncReturns<string>): string {
  if (result.error) return result.error.message;
  return `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() || `exit code ${result.status}`;
}

function step(message: string): void {
  console.log(`- ${message}`);
}

function mark(check: Check | undefined): string {
  if (check === undefined) return "-";
  const symbol = check.status === "pass" ? "ok" : check.status === "fail" ? "FAIL" : "skip";
  return check.note !== undefined && check.status === "pass" ? `${symbol} (${check.note})` : symbol;
}

function printTable(packages: PackageUnderCheck[], columns: string[], install: Check): void {
  const header = ["package", ...columns];
  const rows = packages.map((pkg) => [
    `${pkg.name}@${pkg.version}`,
    ...columns.map((column) => mark(pkg.checks.get(column))),
  ]);
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index]!.length)));
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join("  ");
  console.log(`\n${line(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
  for (const row of rows) console.log(line(row));
  console.log(`\nconsumer npm install: ${mark(install)}   (esm/cjs columns: number of named exports loaded)`);
}

function printFailures(packages: PackageUnderCheck[], columns: string[], install: Check): number {
  let failures = 0;
  const report = (title: string, check: Check) => {
    failures += 1;
    const lines = (check.output ?? "").split("\n");
    const shown = lines.length > 40 ? [...lines.slice(0, 40), `... (${lines.length - 40} more lines)`] : lines;
    console.log(`\n--- ${title}\n${shown.map((line) => `  ${line}`).join("\n")}`);
  };
  if (install.status === "fail") report("consumer npm install", install);
  for (const pkg of packages) {
    for (const column of columns) {
      const check = pkg.checks.get(column);
      if (check?.status === "fail") report(`${pkg.name}: ${column}`, check);
    }
  }
  return failures;
}
