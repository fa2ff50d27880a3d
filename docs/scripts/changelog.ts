/**
 * The API changelog page's Markdown, from the changesets' history: the pending `.changeset/*.md` under
 * "Unreleased", then every released version from the public packages' `CHANGELOG.md` files (written by
 * `changeset version`). Both states render: before the first release there are only pending changesets, after it
 * only changelogs (until the next changeset lands).
 *
 * The public packages form one fixed version group, so a change that touched several packages appears in each of
 * their changelogs; the page shows it once per version and names the packages it touched.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

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

/** The pending changesets (`.changeset/*.md` but its README) as one "Unreleased" version, or undefined when none. */
export function pendingChanges(rootDir: string): ChangelogVersion | undefined {
  const changesetDir = join(rootDir, ".changeset");
  if (!existsSync(changesetDir)) return undefined;
  const entries: ChangeEntry[] = [];
  for (const file of readdirSync(changesetDir).sort()) {
    if (!file.endsWith(".md") || file.toLowerCase() === "readme.md") continue;
    const entry = parseChangeset(readFileSync(join(changesetDir, file), "utf8"));
    if (entry !== undefined) entries.push(entry);
  }
  return entries.length === 0 ? undefined : { version: "Unreleased", entries: sortEntries(entries) };
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
  for (const { name, dir } of publicPackages(rootDir)) {
    const file = join(dir, "CHANGELOG.md");
    if (!existsSync(file)) continue;
    for (const { version, entries } of parseChangelog(readFileSync(file, "utf8"))) {
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
    .map(([version, merged]) => ({ version, entries: sortEntries([...merged.values()]) }));
}

/**
 * One package's `CHANGELOG.md` as changesets writes it: `## <version>`, then `### Major|Minor|Patch Changes`, then
 * one bullet per change (`- <commit>: <text>`, continuation lines indented). "Updated dependencies" bullets say
 * nothing about the API and are left out.
 */
export function parseChangelog(
  source: string,
): Array<{ version: string; entries: Array<Omit<ChangeEntry, "packages">> }> {
  const result: Array<{ version: string; entries: Array<Omit<ChangeEntry, "packages">> }> = [];
  let current: { version: string; entries: Array<Omit<ChangeEntry, "packages">> } | undefined;
  let bump: Bump | undefined;
  let bullet: string[] | undefined;
  const flush = () => {
    if (bullet !== undefined && current !== undefined && bump !== undefined) {
      const text = bullet
        .join("\n")
        .replace(/^[0-9a-f]{7,40}:\s*/, "")
        .trim();
      if (text !== "" && !/^Updated dependencies\b/.test(text)) current.entries.push({ bump, text: dedent(text) });
    }
    bullet = undefined;
  };
  for (const line of source.split(/\r?\n/)) {
    const version = /^## (\S+)\s*$/.exec(line);
    if (version !== null) {
      flush();
      current = { version: version[1]!, entries: [] };
      result.push(current);
      bump = undefined;
      continue;
    }
    const kind = /^### (Major|Minor|Patch) Changes\s*$/i.exec(line);
    if (kind !== null) {
      flush();
      bump = kind[1]!.toLowerCase() as Bump;
      continue;
    }
    if (/^#{1,3} /.test(line)) {
      flush();
      bump = undefined;
      continue;
    }
    if (line.startsWith("- ")) {
      flush();
      bullet = [line.slice(2)];
    } else if (bullet !== undefined) {
      bullet.push(line);
    }
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
  for (const { version, entries } of versions) {
    lines.push(`## ${version}`, "");
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
