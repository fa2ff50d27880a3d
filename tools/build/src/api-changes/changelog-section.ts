/**
 * The "API changes" section of a release in the changelog of `@org/webinar-types` (the package generated from the
 * spec): the classified changes since the last release, in API terms, written by `pnpm release:version` under the
 * version heading `changeset version` wrote. docs/scripts/changelog.ts reads it back for the changelog page.
 */
import { apiChangeBullets } from "./changes.ts";
import type { ApiChange } from "./model.ts";

export const API_CHANGES_HEADING = "### API changes";

/** The section's lines: heading, what was compared, one bullet per change. */
export function apiChangesSection(changes: ApiChange[], specVersions: { from: string; to: string }): string[] {
  return [
    API_CHANGES_HEADING,
    "",
    `Spec \`info.version\` ${specVersions.from} → ${specVersions.to}, each change judged for clients and servers by \`pnpm check:api-changes\`:`,
    "",
    ...apiChangeBullets(changes).map((bullet) => `- ${bullet}`),
  ];
}

/** `changelog` with the section inserted right under the heading of `version`. */
export function withApiChangesSection(changelog: string, version: string, section: string[]): string {
  const lines = changelog.split("\n");
  const heading = lines.findIndex((line) => line.trim() === `## ${version}`);
  if (heading === -1) throw new Error(`the changelog has no heading "## ${version}"`);
  return [...lines.slice(0, heading + 1), "", ...section, ...lines.slice(heading + 1)].join("\n");
}
