import { defineConfig } from "tsup";

// The watch page's script (src/watch/page/main.ts and what it imports) as one classic script for the browser,
// dist/watch-page/watch.js, which the server serves at /w/assets/watch.js (src/watch/page-script.ts). Built after
// the server's own bundles (`pnpm build`), whose `clean` empties dist/ first.
export default defineConfig({
  entry: { watch: "src/watch/page/main.ts" },
  outDir: "dist/watch-page",
  format: ["iife"],
  outExtension: () => ({ js: ".js" }),
  platform: "browser",
  target: "es2020",
  tsconfig: "src/watch/page/tsconfig.json",
  clean: true,
  sourcemap: false,
  minify: true,
});
