export { bundleInternal } from "./bundle-internal.js";
export { libraryWithCli } from "./library-with-cli.js";
