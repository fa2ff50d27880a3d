// The library (`runConformance` and the report writers) in ESM and CommonJS, and the `webinar-conformance` bin.
import { libraryWithCli } from "../../scripts/tsup/library-with-cli";

export default libraryWithCli();
