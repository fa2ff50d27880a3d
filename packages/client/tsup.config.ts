// The library in ESM and CommonJS (merchant backends still run Jest and CommonJS), and the `webinar` bin.
import { libraryWithCli } from "@org/webinar-build/tsup";
import type { Options } from "tsup";

const builds: Options[] = libraryWithCli();
export default builds;
