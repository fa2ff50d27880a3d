// The tsup setups the packages share (see README.md).
export { bundleInternal } from "./bundle-internal.js";
export { libraryWithCli } from "./library-with-cli.js";
