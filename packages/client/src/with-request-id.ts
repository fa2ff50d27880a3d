/**
 * A method's result is the answer's `data` itself, so `const { viewer } = await client.upsertViewer(...)` works,
 * with the answer's `requestId` attached as a non-enumerable property: it is there to read and quote, but it does
 * not show up in `JSON.stringify`, spreads or `Object.keys`, so the data stays exactly what the API returned.
 */

/** `data` of an answer, plus the answer's `requestId` (non-enumerable). */
export type WithRequestId<T> = T & { readonly requestId: string };

/** Attaches `requestId` to `data` as a non-enumerable, read-only property. */
export function withRequestId<T extends object>(data: T, requestId: string): WithRequestId<T> {
  return Object.defineProperty(data, "requestId", {
    value: requestId,
    enumerable: false,
    writable: false,
    configurable: true,
  }) as WithRequestId<T>;
}
