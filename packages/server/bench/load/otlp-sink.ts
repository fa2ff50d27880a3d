/**
 * Where a traced server of `pnpm bench:load --tracing` sends its spans: an OTLP/HTTP endpoint in a process of its
 * own (otlp-sink-app.ts) that accepts every export and throws it away, so the figures include the whole cost of
 * tracing in the server (making the spans, encoding and sending them) and none of a collector's.
 *
 * A traced server keeps sending for a few seconds after its load stops (the batch processor exports what it
 * queued): `settled()` waits until nothing more arrives, so those exports do not fall into the next server's
 * measured seconds.
 */
import { fileURLToPath } from "node:url";
import { startProcess } from "./processes";

export interface OtlpSink {
  /** The value of OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  /** Trace exports received so far, and their bytes. */
  received(): Promise<{ exports: number; bytes: number }>;
  /** Resolves once no byte has arrived for half a second (at most 15 s). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const SINK_APP = fileURLToPath(new URL("./otlp-sink-app.ts", import.meta.url));
const QUIET_MS = 500;
const MAX_SETTLE_MS = 15_000;

export async function startOtlpSink(): Promise<OtlpSink> {
  const process_ = await startProcess({
    name: "OTLP sink",
    nodeArguments: ["--import", "tsx", SINK_APP],
    env: process.env,
    cwd: fileURLToPath(new URL(".", import.meta.url)),
  });
  const received = async () =>
    (await (await fetch(`${process_.url}/received`)).json()) as { exports: number; bytes: number };
  return {
    url: process_.url,
    received,
    async settled() {
      const deadline = Date.now() + MAX_SETTLE_MS;
      let before = (await received()).bytes;
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
        const now = (await received()).bytes;
        if (now === before) return;
        before = now;
      }
    },
    close: () => process_.stop(),
  };
}
