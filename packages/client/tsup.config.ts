// The library in ESM and CommonJS (merchant backends still run Jest and CommonJS), and the `webinar` bin.
import { libraryWithCli } from "../../scripts/tsup/library-with-cli";

export default libraryWithCli();
