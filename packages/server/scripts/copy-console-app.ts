/**
 * The last step of `pnpm --filter @org/webinar-server build`: copies the merchant console's built web app
 * (`packages/console/dist/`, index.html and assets/) into `dist/console/`, so the server package carries it and a
 * server installed from the registry serves it at `/console/` (src/console/page.ts). Turbo builds the console
 * first (this package's turbo.json). A console that was not built fails the build: a server package without its
 * console would answer 503 on `/console/`.
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../../console/dist/", import.meta.url));
const target = fileURLToPath(new URL("../dist/console/", import.meta.url));

if (!existsSync(`${source}index.html`)) {
  console.error(`the console is not built (no ${source}index.html): run \`pnpm --filter @org/webinar-console build\``);
  process.exit(1);
}
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
console.log("copied the console's web app into dist/console/");
