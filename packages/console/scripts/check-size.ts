/**
 * Runs after `vite build`: the JavaScript the first page loads (the entry chunk named by dist/index.html and every
 * chunk it imports statically, transitively) must stay under the budget gzipped. Lazily imported chunks (the
 * watch-data page, the charts) are not counted: the first page never loads them. Prints the figure; exits 1 over
 * the budget.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const BUDGET_BYTES = 200 * 1024;
const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** The module scripts index.html loads, as paths under dist/. */
function entryScripts(html: string): string[] {
  return [...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((match) =>
    match[1]!.replace(/^\/console\//, ""),
  );
}

/** Chunks a chunk imports statically (`import ... from "./x.js"`, `import "./x.js"`), not `import("./x.js")`. */
function staticImports(code: string): string[] {
  const found = [...code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g)];
  return found.map((match) => `assets/${match[1]}`);
}

const seen = new Set<string>();
const queue = entryScripts(readFileSync(join(dist, "index.html"), "utf8"));
if (queue.length === 0) throw new Error("dist/index.html names no module script");
let gzipped = 0;
let raw = 0;
while (queue.length > 0) {
  const file = queue.shift()!;
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(join(dist, file));
  raw += code.length;
  gzipped += gzipSync(code, { level: 9 }).length;
  queue.push(...staticImports(code.toString("utf8")));
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `first page JavaScript: ${kb(gzipped)} gzipped (${kb(raw)} raw) in ${seen.size} file(s): ${[...seen].join(", ")}; budget ${kb(BUDGET_BYTES)}`,
);
if (gzipped > BUDGET_BYTES) {
  console.error(`over the budget by ${kb(gzipped - BUDGET_BYTES)}`);
  process.exit(1);
}
