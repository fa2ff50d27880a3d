/**
 * The group commits' writes (heartbeat credits, nonce claims): how many calls each write carried and how long it
 * took, told by the group commit's `onWrite`.
 */
import type { BatchWritten } from "@org/webinar-validator";
import { Histogram, type Registry } from "prom-client";

/** The server's batched writes, the `batch` label's values. */
export type BatchKind = "heartbeat" | "nonce_claim";

const SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** `onWrite` hooks per batch kind, recording into `registry`. */
export function batchMetrics(registry: Registry): Record<BatchKind, (written: BatchWritten) => void> {
  const sizes = new Histogram({
    name: "webinar_batch_size",
    help: "Calls carried by one batched write (heartbeat: heartbeats and stops credited; nonce_claim: nonces claimed).",
    labelNames: ["batch"] as const,
    buckets: SIZE_BUCKETS,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "webinar_batch_commit_duration_seconds",
    help: "Time one batched write took, by batch and outcome (committed or failed).",
    labelNames: ["batch", "outcome"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const recorder = (batch: BatchKind) => (written: BatchWritten) => {
    sizes.observe({ batch }, written.size);
    const outcome = written.error === undefined ? "committed" : "failed";
    durations.observe({ batch, outcome }, written.durationMs / 1000);
  };
  return { heartbeat: recorder("heartbeat"), nonce_claim: recorder("nonce_claim") };
}
