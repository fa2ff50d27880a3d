/**
 * The changelog page's source in both states of the repository: before a release (pending changesets only) and
 * after `changeset version` (the packages' CHANGELOG.md files, and maybe new changesets), on a repository laid
 * out in a temp folder the way changesets leaves it; and on this repository as it is.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  changelogMarkdown,
  compareVersions,
  parseChangeset,
  pendingChanges,
  releasedVersions,
} from "../scripts/changelog.ts";
import { rootDir } from "../scripts/site.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function repository(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "docs-changelog-"));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const manifests = {
  "packages/signing/package.json": JSON.stringify({ name: "@org/webinar-signing", version: "1.0.0" }),
  "packages/client/package.json": JSON.stringify({ name: "@org/webinar-client", version: "1.0.0" }),
  "packages/internal/package.json": JSON.stringify({ name: "@org/internal", private: true }),
};

const signingChangelog = `# @org/webinar-signing

## 1.1.0

### Minor Changes

- 1a2b3c4: Signing accepts a \`Uint8Array\` body.

  The bytes are hashed as given.

### Patch Changes

- 5d6e7f8: Verification rejects an uppercase signature.
- Updated dependencies [1a2b3c4]
  - @org/webinar-types@1.1.0

## 1.0.0

### Major Changes

- 9a8b7c6: First release.
`;

const clientChangelog = `# @org/webinar-client

## 1.1.0

### Patch Changes

- 5d6e7f8: Verification rejects an uppercase signature.

## 1.0.0

### Major Changes

- 9a8b7c6: First release.
`;

describe("docs: the changelog", () => {
  it("before a release: the pending changesets, under Unreleased, by kind of change", () => {
    const root = repository({
      ...manifests,
      ".changeset/README.md": "# Changesets\n",
      ".changeset/config.json": "{}",
      ".changeset/add-retry.md": `---\n"@org/webinar-client": minor\n---\n\nThe client retries a 503 once.\n`,
      ".changeset/fix-hash.md": `---\n"@org/webinar-signing": patch\n"@org/webinar-client": patch\n---\n\nBody hashes of empty bodies are right.\n`,
    });
    expect(releasedVersions(root)).toEqual([]);
    expect(pendingChanges(root)).toEqual({
      version: "Unreleased",
      entries: [
        { bump: "minor", text: "The client retries a 503 once.", packages: ["@org/webinar-client"] },
        {
          bump: "patch",
          text: "Body hashes of empty bodies are right.",
          packages: ["@org/webinar-client", "@org/webinar-signing"],
        },
      ],
    });
    const markdown = changelogMarkdown(root);
    expect(markdown).toMatch(/## Unreleased\n\n### Additions\n\n- The client retries a 503 once\./);
    expect(markdown).toContain("### Fixes");
    expect(markdown).not.toContain("## 1.");
  });

  it("after `changeset version`: every version, newest first, each change once with the packages it touched", () => {
    const root = repository({
      ...manifests,
      ".changeset/README.md": "# Changesets\n",
      "packages/signing/CHANGELOG.md": signingChangelog,
      "packages/client/CHANGELOG.md": clientChangelog,
    });
    expect(pendingChanges(root)).toBeUndefined();
    expect(releasedVersions(root)).toEqual([
      {
        version: "1.1.0",
        entries: [
          {
            bump: "minor",
            text: "Signing accepts a `Uint8Array` body.\n\nThe bytes are hashed as given.",
            packages: ["@org/webinar-signing"],
          },
          {
            bump: "patch",
            text: "Verification rejects an uppercase signature.",
            packages: ["@org/webinar-client", "@org/webinar-signing"],
          },
        ],
      },
      {
        version: "1.0.0",
        entries: [{ bump: "major", text: "First release.", packages: ["@org/webinar-client", "@org/webinar-signing"] }],
      },
    ]);
    const markdown = changelogMarkdown(root);
    expect(markdown.indexOf("## 1.1.0")).toBeLessThan(markdown.indexOf("## 1.0.0"));
    expect(markdown).not.toContain("Updated dependencies");
    expect(markdown).not.toContain("## Unreleased");
    expect(markdown.match(/First release\./g)).toHaveLength(1);
  });

  it("after a release with new changesets: Unreleased first, then the releases", () => {
    const root = repository({
      ...manifests,
      "packages/signing/CHANGELOG.md": signingChangelog,
      ".changeset/next.md": `---\n"@org/webinar-signing": major\n---\n\nThe spec's version 2.\n`,
    });
    const markdown = changelogMarkdown(root);
    expect(markdown.indexOf("## Unreleased")).toBeLessThan(markdown.indexOf("## 1.1.0"));
    expect(markdown).toMatch(/## Unreleased\n\n### Breaking changes\n\n- The spec's version 2\./);
  });

  it("a release's API changes section is read back and shown under its version", () => {
    const apiSection = [
      "### API changes",
      "",
      "Spec `info.version` 1.0.0 → 1.1.0, each change judged for clients and servers by `pnpm check:api-changes`:",
      "",
      "- Compatible: issueLoginTicket response `data.issuedAt`: new field.",
      "- Breaking for servers: queryViewerWatch response `data.items`: `maxItems` none → 100.",
      "",
    ].join("\n");
    const root = repository({
      ...manifests,
      "packages/signing/CHANGELOG.md": signingChangelog.replace("## 1.1.0\n\n", `## 1.1.0\n\n${apiSection}\n`),
    });
    const [latest] = releasedVersions(root);
    expect(latest?.apiChanges).toEqual([
      "Compatible: issueLoginTicket response `data.issuedAt`: new field.",
      "Breaking for servers: queryViewerWatch response `data.items`: `maxItems` none → 100.",
    ]);
    expect(latest?.entries.map((entry) => entry.bump)).toEqual(["minor", "patch"]);
    expect(changelogMarkdown(root)).toMatch(
      /## 1\.1\.0\n\n### API changes\n\nThe changes of the spec in this release, .*\n\n- Compatible: issueLoginTicket/,
    );
  });

  it("Unreleased lists the spec's API changes since the released spec, judged for clients and servers", () => {
    const spec = readFileSync(join(rootDir, "spec", "openapi.yaml"), "utf8");
    const root = repository({
      ...manifests,
      "spec/openapi.released.yaml": spec,
      "spec/openapi.yaml": spec.replace("enum: [ALL, LIVE, REPLAY]", "enum: [ALL, LIVE]"),
    });
    const markdown = changelogMarkdown(root);
    expect(markdown).toContain("## Unreleased\n\n### API changes\n\nThe changes of the spec since the last release");
    expect(markdown).toContain(
      "- Breaking for clients: getWatchOverview request `playbackMode` and queryViewerWatch request `playbackMode` " +
        "(schema `PlaybackMode`): no longer accepts `REPLAY`.",
    );
  });

  it("with no history at all, says so", () => {
    expect(changelogMarkdown(repository(manifests))).toContain("No change has been recorded yet.");
  });

  it("ignores a changeset without a release or a summary", () => {
    expect(parseChangeset(`---\n---\n\nNothing.\n`)).toBeUndefined();
    expect(parseChangeset(`---\n"@org/webinar-client": minor\n---\n`)).toBeUndefined();
    expect(parseChangeset(`---\n'@org/webinar-client': major\n"@org/webinar-types": patch\n---\nText\n`)).toEqual({
      bump: "major",
      text: "Text",
      packages: ["@org/webinar-client", "@org/webinar-types"],
    });
  });

  it("orders versions as semver, a pre-release before its release", () => {
    expect(["1.0.0", "1.10.0", "1.2.0", "2.0.0-next.1", "2.0.0"].sort(compareVersions)).toEqual([
      "1.0.0",
      "1.2.0",
      "1.10.0",
      "2.0.0-next.1",
      "2.0.0",
    ]);
  });

  it("this repository's history renders: every pending changeset appears", () => {
    const pending = pendingChanges(rootDir);
    const markdown = changelogMarkdown(rootDir);
    for (const entry of pending?.entries ?? []) expect(markdown).toContain(entry.text.split("\n")[0]!);
    expect(pending !== undefined || releasedVersions(rootDir).length > 0).toBe(true);
  });
});
