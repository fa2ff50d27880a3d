/**
 * The import rules of `.dependency-cruiser.cjs` (`pnpm check:imports`): the repository keeps them, and each rule
 * catches what it forbids in a small tree written here (so a rule that stopped matching would not pass quietly).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CONFIG = join(repoRoot, ".dependency-cruiser.cjs");
const DEPCRUISE = join(repoRoot, "node_modules", ".bin", "depcruise");

function cruise(cwd: string, folders: string[]): { status: number | null; output: string } {
  const result = spawnSync(DEPCRUISE, ["--config", CONFIG, "--output-type", "err", ...folders], {
    cwd,
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const tree = mkdtempSync(join(tmpdir(), "import-rules-"));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
}

describe("the import rules", () => {
  it("hold in this repository", () => {
    const { status, output } = cruise(repoRoot, ["packages", "tools", "scripts", "spec", "docs"]);
    expect(output).toContain("no dependency violations found");
    expect(status).toBe(0);
  }, 60_000);

  it("each one catches what it forbids", () => {
    write({
      "tsconfig.base.json": JSON.stringify({ compilerOptions: { module: "nodenext", strict: true } }),
      "vitest.shared.ts": "export const shared = 1;\n",
      // A cycle.
      "packages/one/src/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "packages/one/src/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
      // A relative import into another package; the repository's root files are no package.
      "packages/one/src/reach.ts": 'import { other } from "../../two/src/other";\nexport const reach = other;\n',
      "packages/one/vitest.config.ts": 'import { shared } from "../../vitest.shared";\nexport default shared;\n',
      "packages/two/src/other.ts": "export const other = 2;\n",
      // The server's floors, each crossed upwards once, and two surfaces side by side.
      "packages/server/src/console/app.ts": 'import { admin } from "../admin/routes";\nexport const app = admin;\n',
      "packages/server/src/admin/routes.ts": "export const admin = 1;\n",
      "packages/server/src/db/connect.ts": 'import { trace } from "../people/sessions";\nexport const db = trace;\n',
      "packages/server/src/people/sessions.ts": 'import { page } from "../watch/page";\nexport const trace = page;\n',
      "packages/server/src/watch/page.ts": "export const page = 3;\n",
      "packages/server/src/http/app-env.ts": 'import type { S } from "../services";\nexport type Env = S;\n',
      "packages/server/src/services.ts": "export type S = number;\n",
    });
    const { status, output } = cruise(tree, ["packages"]);
    expect(status).not.toBe(0);
    const found = output
      .split("\n")
      .map((line) => /error (\S+): (\S+) →\s*(\S*)/.exec(line.trim()))
      .filter((match) => match !== null)
      .map((match) => `${match[1]}: ${match[2]} -> ${match[3]}`);
    expect(found.sort()).toEqual(
      [
        // A cycle is reported once, from its first module.
        "no-cycle: packages/one/src/a.ts -> ",
        "no-relative-import-across-packages: packages/one/src/reach.ts -> packages/two/src/other.ts",
        "server-domain-below-surfaces: packages/server/src/people/sessions.ts -> packages/server/src/watch/page.ts",
        "server-infrastructure-below-domain-and-surfaces: packages/server/src/db/connect.ts -> packages/server/src/people/sessions.ts",
        "server-lower-floors-below-the-assembly: packages/server/src/http/app-env.ts -> packages/server/src/services.ts",
        "server-surfaces-side-by-side: packages/server/src/console/app.ts -> packages/server/src/admin/routes.ts",
      ].sort(),
    );
  }, 60_000);
});
