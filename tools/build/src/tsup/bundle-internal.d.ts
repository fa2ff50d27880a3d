import type { Options } from "tsup";

/** `options` with the code and the types of @org/webinar-internal bundled in, never imported from the package. */
export declare function bundleInternal(options: Options): Options;
