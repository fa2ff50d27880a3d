/**
 * The API changes between two versions of the spec, in API terms: the walk's findings (operations.ts) merged where
 * one shared schema was reached from several places, each with the places it affects, whom it breaks and the
 * release it needs; and their wording for the checker's output and the changelogs.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { JsonObject } from "./json.ts";
import { type ApiChange, type Finding, LEVELS, levelOf, type Place } from "./model.ts";
import { findDifferences } from "./operations.ts";

/** Parses an OpenAPI document (YAML or JSON) from a file. */
export function readApiDocument(path: string): JsonObject {
  return parse(readFileSync(path, "utf8")) as JsonObject;
}

const label = (place: Place) => {
  if (place.operation === "") return "the document";
  const field = place.field === "" ? "" : ` \`${place.field}\``;
  return `${place.operation}${place.direction === undefined ? "" : ` ${place.direction}`}${field}`;
};

/** "a", "a and b", "a, b and c". */
export const listOf = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/** The places a change affects, and the shared schema it was made in. */
function whereOf(places: Place[], definition: string): string {
  const labels = [...new Set(places.map(label))];
  const shown = labels.length > 4 ? [...labels.slice(0, 3), `${labels.length - 3} more`] : labels;
  const component = /^#\/components\/schemas\/([^/]+)$/.exec(definition)?.[1];
  return component === undefined ? listOf(shown) : `${listOf(shown)} (schema \`${component}\`)`;
}

/** Within a level: changes breaking both sides first, then clients, then servers, then neither. */
const breakingRank = (change: Pick<ApiChange, "clients" | "servers">) =>
  (change.clients === "breaking" ? 0 : 2) + (change.servers === "breaking" ? 0 : 1);

/** Merges the findings of one change reached from several places, and orders them: breaking first. */
export function summarize(findings: Finding[]): ApiChange[] {
  const groups = new Map<string, { finding: Finding; places: Place[] }>();
  for (const finding of findings) {
    const { place, definition, rule, what, clients, servers } = finding;
    const key = [place.direction ?? "", definition, rule, what, clients, servers].join("\n");
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { finding, places: [place] });
    else group.places.push(place);
  }
  return [...groups.values()]
    .map(({ finding, places }) => ({
      rule: finding.rule,
      where: whereOf(places, finding.definition),
      what: finding.what,
      clients: finding.clients,
      servers: finding.servers,
      level: levelOf(finding),
    }))
    .sort(
      (a, b) =>
        LEVELS.indexOf(b.level) - LEVELS.indexOf(a.level) ||
        breakingRank(a) - breakingRank(b) ||
        a.where.localeCompare(b.where),
    );
}

/** The API changes from the spec `before` (the last release's) to `after` (the current one). */
export function diffApi(before: JsonObject, after: JsonObject): ApiChange[] {
  return summarize(findDifferences(before, after));
}

/** Whom a change breaks, in words. */
export function impactWords(change: Pick<ApiChange, "clients" | "servers" | "level">): string {
  if (change.level === "patch") return "Documentation";
  if (change.clients === "breaking")
    return change.servers === "breaking" ? "Breaking for clients and servers" : "Breaking for clients";
  return change.servers === "breaking" ? "Breaking for servers" : "Compatible";
}

/** One line per change, for the checker's output. */
export const describeChange = (change: ApiChange) =>
  `[${change.level}] ${impactWords(change)}: ${change.where}: ${change.what}`;

/**
 * The changes as the Markdown texts of a changelog's bullets. Changes of descriptions and examples alone are folded
 * into one: they change no answer.
 */
export function apiChangeBullets(changes: ApiChange[]): string[] {
  const documentation = changes.filter((change) => change.rule === "documentation");
  const bullets = changes
    .filter((change) => change.rule !== "documentation")
    .map((change) => `${impactWords(change)}: ${change.where}: ${change.what}.`);
  if (documentation.length > 0)
    bullets.push(
      `Documentation: descriptions, examples or code samples of ${listOf(documentation.map((change) => change.where))}.`,
    );
  return bullets;
}
