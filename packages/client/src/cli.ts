#!/usr/bin/env node
/**
 * Entry of the `webinar` bin: runs src/cli/main.ts with the process's streams and environment. A closed stdout
 * (`webinar viewers export ... | head`) ends the run quietly instead of with an EPIPE stack trace. Whether stdout
 * is a new or empty file is told once, before anything is written to it.
 */
import { main } from "./cli/main";
import { isEmptyFile } from "./cli/output";

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stdoutIsEmptyFile: isEmptyFile(process.stdout.fd),
});
