// The library (`runConformance` and the report writers) and the reference server's setup hooks
// (`@org/webinar-conformance/reference-admin`) in ESM and CommonJS, and the `webinar-conformance` bin.
import type { Options } from "tsup";
import { libraryWithCli } from "../../scripts/tsup/library-with-cli";

const [library, cli] = libraryWithCli();

const config: Options[] = [{ ...library, entry: ["src/index.ts", "src/reference-admin.ts"] }, cli!];

export default config;
