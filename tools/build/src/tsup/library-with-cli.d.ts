import type { Options } from "tsup";

/** The tsup builds of a package that is a library (`src/index.ts`) and a command (`src/cli.ts`). */
export declare function libraryWithCli(): Options[];
