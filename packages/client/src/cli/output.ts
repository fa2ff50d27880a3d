/** Writing to stdout and stderr with backpressure, so exporting a large result never buffers it all in memory. */
import { once } from "node:events";
import { fstatSync } from "node:fs";
import type { Writable } from "node:stream";

/** The streams and environment the CLI runs with; tests pass their own. */
export interface CliIo {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /**
   * Whether stdout is a regular file with nothing in it yet (`> viewers.csv`), where a CSV starts with the UTF-8
   * byte-order mark Excel needs; absent means no (a terminal, a pipe, a file appended to).
   */
  stdoutIsEmptyFile?: boolean;
}

/** Whether a file descriptor is a regular file that is still empty; false when it cannot be told. */
export function isEmptyFile(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return stats.isFile() && stats.size === 0;
  } catch {
    return false;
  }
}

/** Writes text and waits for the stream to drain when its buffer is full. */
export async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}
