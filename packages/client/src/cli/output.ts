/** Writing to stdout and stderr with backpressure, so exporting a large result never buffers it all in memory. */
import { once } from "node:events";
import type { Writable } from "node:stream";

/** The streams and environment the CLI runs with; tests pass their own. */
export interface CliIo {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

/** Writes text and waits for the stream to drain when its buffer is full. */
export async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}
