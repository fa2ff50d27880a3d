#!/usr/bin/env node
/** Entry of the `webinar-conformance` bin: runs src/cli/main.ts with the process's streams and environment. */
import { main } from "./cli/main";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
