// The library and its command-line helpers (`@org/webinar-client/command-line`) in ESM and CommonJS (merchant
// backends still run Jest and CommonJS), and the `webinar` bin.
import type { Options } from "tsup";
import { libraryWithCli } from "../../scripts/tsup/library-with-cli";

const [library, cli] = libraryWithCli();

const config: Options[] = [
  { ...library, entry: { index: "src/index.ts", "command-line": "src/command-line/index.ts" } },
  cli!,
];

export default config;
