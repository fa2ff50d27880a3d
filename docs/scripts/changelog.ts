/**
 * The API changelog page's Markdown, from the changesets' history: the pending `.changeset/*.md` under
 * "Unreleased", then every released version from the public packages' `CHANGELOG.md` files (written by
 * `changeset version`). Both states render: before the first release there are only pending changesets, after it
 * only changelogs (until the next changeset lands).
 *
 * The public packages form one fixed version group, so a change that touched several packages appears in each of
 * their changelogs; the page shows it once per version and names the packages it touched.
 *
 * Each version also lists its API changes in API terms, judged for clients and servers: for a release, the "API
 * changes" section `pnpm release:version` wrote into `@org/webinar-types`' changelog; under "Unreleased", the
 * changes of spec/openapi.yaml since the released spec, classified the same way (@org/webinar-build/api-changes).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  API_CHANGES_HEADING,
  apiChangeBullets,
  diffApi,
  RELEASED_SPEC_PATH,
  readApiDocument,
  SPEC_PATH,
} from "@org/webinar-build/api-changes";

export type Bump = "major" | "minor" | "patch";

export interface ChangeEntry {
  bump: Bump;
  /** The change's text as Markdown (a changeset's body, or one bullet of a changelog). */
  text: string;
  packages: string[];
}

export interface ChangelogVersion {
  /** `Unreleased`, or a released version such as `1.2.0`. */
  version: string;
  entries: ChangeEntry[];
  /** The API changes of the version, one Markdown text each; absent when the API did not change. */
  apiChanges?: string[];
}

/** One version of one package's changelog as parsed. */
interface ParsedVersion {
  version: string;
  entries: Array<Omit<ChangeEntry, "packages">>;
  apiChanges?: string[];
}

const bumps: readonly Bump[] = ["major", "minor", "patch"];
const bumpHeadings: Record<Bump, string> = { major: "Breaking changes", minor: "Additions", patch: "Fixes" };

/** The public packages under `packages/`: name and folder, in name order. */
export function publicPackages(rootDir: string): Array<{ name: string; dir: string }> {
  const packagesDir = join(rootDir, "packages");
  if (!existsSync(packagesDir)) return [];
  const found: Array<{ name: string; dir: string }> = [];
  for (const folder of readdirSync(packagesDir).sort()) {
    const manifestPath = join(packagesDir, folder, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { name?: string; private?: boolean };
    if (typeof manifest.name === "string" && manifest.private !== true)
      found.push({ name: manifest.name, dir: join(packagesDir, folder) });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The API changes of the spec since the released one, as changelog texts (none when either file is missing). */
export function unreleasedApiChanges(rootDir: string): string[] {
  const released = join(rootDir, RELEASED_SPEC_PATH);
  const current = join(rootDir, SPEC_PATH);
  if (!existsSync(released) || !existsSync(current)) return [];
  return apiChangeBullets(diffApi(readApiDocument(released), readApiDocument(current)));
}

/**
 * The pending changesets (`.changeset/*.md` but its README) and the spec's unreleased API changes as one
 * "Unreleased" version, or undefined when there are neither.
 */
export function pendingChanges(rootDir: string): ChangelogVersion | undefined {
  const entries = pendingChangesets(rootDir);
  const apiChanges = unreleasedApiChanges(rootDir);
  if (entries.length === 0 && apiChanges.length === 0) return undefined;
  return { version: "Unreleased", entries, ...(apiChanges.length > 0 ? { apiChanges } : {}) };
}

function pendingChangesets(rootDir: string): ChangeEntry[] {
  const changesetDir = join(rootDir, ".changeset");
  if (!existsSync(changesetDir)) return [];
  const entries: ChangeEntry[] = [];
  for (const file of readdirSync(changesetDir).sort()) {
    if (!file.endsWith(".md") || file.toLowerCase() === "readme.md") continue;
    const entry = parseChangeset(readFileSync(join(changesetDir, file), "utf8"));
    if (entry !== undefined) entries.push(entry);
  }
  return sortEntries(entries);
}

/** One changeset file: front matter of `"package": bump` lines, then the summary. Undefined for an empty one. */
export function parseChangeset(source: string): ChangeEntry | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (match === null) return undefined;
  const packages: string[] = [];
  let bump: Bump | undefined;
  for (const line of match[1]!.split(/\r?\n/)) {
    const release = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
    if (release === null) continue;
    packages.push(release[1]!.trim());
    const level = release[2] as Bump;
    if (bump === undefined || bumps.indexOf(level) < bumps.indexOf(bump)) bump = level;
  }
  const text = match[2]!.trim();
  if (bump === undefined || text === "") return undefined;
  return { bump, text, packages: packages.sort() };
}

/** Every released version found in the public packages' `CHANGELOG.md`, newest first, entries merged across packages. */
export function releasedVersions(rootDir: string): ChangelogVersion[] {
  const versions = new Map<string, Map<string, ChangeEntry>>();
  const apiChanges = new Map<string, string[]>();
  for (const { name, dir } of publicPackages(rootDir)) {
    const file = join(dir, "CHANGELOG.md");
    if (!existsSync(file)) continue;
    for (const { version, entries, apiChanges: api } of parseChangelog(readFileSync(file, "utf8"))) {
      if (api !== undefined && !apiChanges.has(version)) apiChanges.set(version, api);
      const merged = versions.get(version) ?? new Map<string, ChangeEntry>();
      versions.set(version, merged);
      for (const entry of entries) {
        const key = `${entry.bump}\n${entry.text}`;
        const known = merged.get(key);
        if (known === undefined) merged.set(key, { ...entry, packages: [name] });
        else if (!known.packages.includes(name)) known.packages.push(name);
      }
    }
  }
  return [...versions.entries()]
    .sort(([a], [b]) => compareVersions(b, a))
    .map(([version, merged]) => {
      const api = apiChanges.get(version);
      return { version, entries: sortEntries([...merged.values()]), ...(api === undefined ? {} : { apiChanges: api }) };
    });
}

/**
 * One package's `CHANGELOG.md` as changesets writes it: `## <version>`, then `### Major|Minor|Patch Changes`, then
 * one bullet per change (`- <commit>: <text>`, continuation lines indented). "Updated dependencies" bullets say
 * nothing about the API and are left out. An `### API changes` section (release:version) gives `apiChanges`.
 */
export function parseChangelog(source: string): ParsedVersion[] {
  const result: ParsedVersion[] = [];
  let current: ParsedVersion | undefined;
  let section: Bump | "api" | undefined;
  let bullet: string[] | undefined;
  const flush = () => {
    if (bullet !== undefined && current !== undefined && section !== undefined) {
      const text = dedent(
        bullet
          .join("\n")
          .replace(/^[0-9a-f]{7,40}:\s*/, "")
          .trim(),
      );
      if (section === "api") current.apiChanges = [...(current.apiChanges ?? []), text];
      else if (text !== "" && !/^Updated dependencies\b/.test(text)) current.entries.push({ bump: section, text });
    }
    bullet = undefined;
  };
  for (const line of source.split(/\r?\n/)) {
    const version = /^## (\S+)\s*$/.exec(line);
    const kind = /^### (Major|Minor|Patch) Changes\s*$/i.exec(line);
    if (version !== null || kind !== null || /^#{1,3} /.test(line)) flush();
    if (version !== null) {
      current = { version: version[1]!, entries: [] };
      result.push(current);
      section = undefined;
    } else if (kind !== null) section = kind[1]!.toLowerCase() as Bump;
    else if (line.trim() === API_CHANGES_HEADING) section = "api";
    else if (/^#{1,3} /.test(line)) section = undefined;
    else if (line.startsWith("- ")) {
      flush();
      bullet = [line.slice(2)];
    } else if (bullet !== undefined) bullet.push(line);
  }
  flush();
  return result;
}

/** The changelog page's Markdown. */
export function changelogMarkdown(rootDir: string): string {
  const versions = [pendingChanges(rootDir), ...releasedVersions(rootDir)].filter((version) => version !== undefined);
  const lines = [
    "# Changelog",
    "",
    "What changed for users of the public packages, newest first. The packages share one version (see",
    '[Versioning](versioning.html)); each change names the packages it touched. "Unreleased" lists the changes',
    "merged since the last release.",
    "",
  ];
  if (versions.length === 0) lines.push("No change has been recorded yet.", "");
  for (const { version, entries, apiChanges } of versions) {
    lines.push(`## ${version}`, "");
    if (apiChanges !== undefined) lines.push(...apiChangesMarkdown(version, apiChanges));
    for (const bump of bumps) {
      const ofBump = entries.filter((entry) => entry.bump === bump);
      if (ofBump.length === 0) continue;
      lines.push(`### ${bumpHeadings[bump]}`, "");
      for (const entry of ofBump) {
        const body = entry.text.replace(/\n/g, "\n  ");
        lines.push(
          `- ${body}`,
          "",
          `  <span class="packages">${entry.packages.map((name) => `\`${name}\``).join(" ")}</span>`,
          "",
        );
      }
    }
  }
  return lines.join("\n");
}

/** A version's API changes: what the spec's changes mean for clients and servers, one bullet each. */
function apiChangesMarkdown(version: string, apiChanges: string[]): string[] {
  const since = version === "Unreleased" ? "since the last release" : "in this release";
  return [
    "### API changes",
    "",
    `The changes of the spec ${since}, each judged for clients (who call the API) and servers (who implement it).`,
    "",
    ...apiChanges.map((text) => `- ${text.replace(/\n/g, "\n  ")}`),
    "",
  ];
}

function sortEntries(entries: ChangeEntry[]): ChangeEntry[] {
  return [...entries].sort((a, b) => bumps.indexOf(a.bump) - bumps.indexOf(b.bump));
}

function dedent(text: string): string {
  const lines = text.split("\n");
  const indents = lines
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => /^ */.exec(line)![0].length);
  const cut = indents.length === 0 ? 0 : Math.min(...indents);
  return [lines[0], ...lines.slice(1).map((line) => line.slice(cut))].join("\n");
}

/** Semver order on `major.minor.patch[-pre]`; a pre-release sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const [core = "", pre] = version.split("-", 2);
    return { parts: core.split(".").map((part) => Number.parseInt(part, 10) || 0), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < 3; index += 1) {
    const difference = (left.parts[index] ?? 0) - (right.parts[index] ?? 0);
    if (difference !== 0) return difference;
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  return left.pre.localeCompare(right.pre, "en", { numeric: true });
}
