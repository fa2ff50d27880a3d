// The library (`runConformance` and the report writers) and the reference server's setup hooks
// (`@org/webinar-conformance/reference-admin`) in ESM and CommonJS, and the `webinar-conformance` bin.
import { libraryWithCli } from "@org/webinar-build/tsup";
import type { Options } from "tsup";

const [library, cli] = libraryWithCli();

const builds: Options[] = [{ ...library, entry: ["src/index.ts", "src/reference-admin.ts"] }, cli!];

export default builds;
