/**
 * The last step of `pnpm --filter @org/webinar-server build`: copies the merchant console's built web app
 * (`dist/` of @org/webinar-console, index.html and assets/) into `dist/console/`, so the server package carries it
 * and a server installed from the registry serves it at `/console/` (src/console/page.ts). The console app is a
 * devDependency of this package, so turbo builds it first. A console that was not built fails the build: a server package without its
 * console would answer 503 on `/console/`.
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const source = join(dirname(createRequire(import.meta.url).resolve("@org/webinar-console/package.json")), "dist/");
const target = fileURLToPath(new URL("../dist/console/", import.meta.url));

if (!existsSync(`${source}index.html`)) {
  console.error(`the console is not built (no ${source}index.html): run \`pnpm --filter @org/webinar-console build\``);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
console.log("copied the console's web app into dist/console/");
