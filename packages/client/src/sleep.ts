/** Waits `ms` milliseconds; rejects with `signal.reason` when the signal aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The default {@link Sleep}: a timer that an abort signal cancels, rejecting with the signal's reason. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
