/**
 * The rule `pnpm check:api-changes` enforces: the pending changesets of the public packages release at least the
 * level the API changes need (see model.ts: breaking for clients -> major, another contract change -> minor,
 * documentation -> patch).
 */
import { type ApiChange, describeChange, higherLevel, type Level, LEVELS } from "@org/webinar-build/api-changes";
import type { ReleasePlan } from "./versioning.ts";

export interface ApiChangeCheck {
  /** The release the API changes need ("none" when the spec is the released one). */
  needed: Level;
  /** The release the pending changesets make for the public packages. */
  planned: Level;
  problems: string[];
}

const levelOfRelease = (type: string): Level =>
  (LEVELS as readonly string[]).includes(type) ? (type as Level) : "none";

export function checkApiChanges(changes: ApiChange[], plan: ReleasePlan, publicNames: string[]): ApiChangeCheck {
  const needed = changes.reduce<Level>((level, change) => higherLevel(level, change.level), "none");
  const planned = plan.releases
    .filter((release) => publicNames.includes(release.name))
    .reduce<Level>((level, release) => higherLevel(level, levelOfRelease(release.type)), "none");
  const problems: string[] = [];
  if (LEVELS.indexOf(planned) < LEVELS.indexOf(needed)) {
    const pending =
      planned === "none" ? "no pending changeset releases them" : `the pending changesets make a ${planned} release`;
    const short = changes.filter((change) => LEVELS.indexOf(change.level) > LEVELS.indexOf(planned));
    problems.push(
      `the API changes need a ${needed} changeset for the public packages, and ${pending}. ` +
        `Changes above ${planned === "none" ? "no release" : planned}:\n${short.map((change) => `    ${describeChange(change)}`).join("\n")}`,
    );
  }
  return { needed, planned, problems };
}
