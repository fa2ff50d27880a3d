/**
 * `pnpm release:version` on a temporary checkout (test/support/checkout.ts) with a breaking spec change and a major
 * changeset: the release's API changes land in API terms in `@org/webinar-types`' changelog and on the docs'
 * changelog page, and the released spec is refreshed, so `pnpm check:api-changes` then finds nothing new.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changelogMarkdown } from "../../docs/scripts/changelog.ts";
import { type Checkout, repoRoot, temporaryCheckout } from "./support/checkout.ts";

const BREAKING = "queryViewerWatch request `sort` (schema `Sort`): no longer accepts `FIRST_WATCHED_ASC`";
let checkout: Checkout;
let released: { status: number | null; output: string };
const tsx = (script: string, root: string) => {
  const result = spawnSync("pnpm", ["exec", "tsx", script, "--root", root], { cwd: repoRoot, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

beforeAll(() => {
  checkout = temporaryCheckout();
  checkout.editSpec((text) =>
    text
      .replace(
        "enum: [WATCH_SECONDS_DESC, LAST_WATCHED_DESC, FIRST_WATCHED_ASC]",
        "enum: [WATCH_SECONDS_DESC, LAST_WATCHED_DESC]",
      )
      .replace(/^ {2}version: \d+\.\d+\.\d+$/m, "  version: 2.0.0"),
  );
  checkout.addChangeset("major", "Sorting by first watch time is gone.");
  expect(changelogMarkdown(checkout.root)).toContain(`## Unreleased\n\n### API changes`);
  released = tsx("scripts/release-version.ts", checkout.root);
}, 120_000);
afterAll(() => checkout.remove());

describe("pnpm release:version", () => {
  it("versions the packages and writes the API changes into @org/webinar-types' changelog, under the new version", () => {
    expect(released.output).toContain("1 API change(s)");
    expect(released.status).toBe(0);
    const changelog = readFileSync(join(checkout.root, "packages", "types", "CHANGELOG.md"), "utf8");
    expect(changelog).toMatch(
      /^# @org\/webinar-types\n\n## 2\.0\.0\n\n### API changes\n\nSpec `info\.version` \d+\.\d+\.\d+ → 2\.0\.0/,
    );
    expect(changelog).toContain(`- Breaking for clients: ${BREAKING}.`);
  });

  it("the docs' changelog page lists the release's API changes in API terms, and nothing unreleased", () => {
    const page = changelogMarkdown(checkout.root);
    expect(page).toContain(`## 2.0.0\n\n### API changes\n\nThe changes of the spec in this release`);
    expect(page).toContain(`- Breaking for clients: ${BREAKING}.`);
    expect(page).not.toContain("## Unreleased");
  });

  it("makes the current spec the released one, so pnpm check:api-changes finds no change after the release commit", () => {
    expect(readFileSync(join(checkout.root, "spec", "openapi.released.yaml"), "utf8")).toContain(
      readFileSync(join(checkout.root, "spec", "openapi.yaml"), "utf8"),
    );
    checkout.commit("Release 2.0.0");
    const { status, output } = tsx("scripts/check-api-changes.ts", checkout.root);
    expect(output).toContain("needed: none");
    expect(status).toBe(0);
  }, 60_000);
});
