// The library and its command-line helpers (`@org/webinar-client/command-line`) in ESM and CommonJS (merchant
// backends still run Jest and CommonJS), and the `webinar` bin.
import { libraryWithCli } from "@org/webinar-build/tsup";
import type { Options } from "tsup";

const [library, cli] = libraryWithCli();

const builds: Options[] = [
  { ...library, entry: { index: "src/index.ts", "command-line": "src/command-line/index.ts" } },
  cli!,
];

export default builds;
