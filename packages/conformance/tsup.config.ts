// The library (`runConformance` and the report writers) in ESM and CommonJS, and the `webinar-conformance` bin.
import { libraryWithCli } from "@org/webinar-build/tsup";
import type { Options } from "tsup";

const builds: Options[] = libraryWithCli();
export default builds;
