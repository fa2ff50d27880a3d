// The library, its command-line helpers (`@org/webinar-client/command-line`) and its viewer CSV writer
// (`@org/webinar-client/csv`) in ESM and CommonJS (merchant backends still run Jest and CommonJS), and the
// `webinar` bin.
import { libraryWithCli } from "@org/webinar-build/tsup";
import type { Options } from "tsup";

const [library, cli] = libraryWithCli();

const builds: Options[] = [
  { ...library, entry: { index: "src/index.ts", "command-line": "src/command-line/index.ts", csv: "src/csv.ts" } },
  cli!,
];

export default builds;
