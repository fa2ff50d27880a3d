// The library and its viewer CSV writer (`@org/webinar-client/csv`) in ESM and CommonJS (merchant backends still
// run Jest and CommonJS), and the `webinar` bin, which carries the command-line parser of @org/webinar-internal.
import { libraryWithCli } from "@org/webinar-build/tsup";
import type { Options } from "tsup";

const [library, cli] = libraryWithCli();

const builds: Options[] = [{ ...library, entry: { index: "src/index.ts", csv: "src/csv.ts" } }, cli!];

export default builds;
