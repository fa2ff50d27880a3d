/**
 * The request log's address holds its filters (listRequests' status, error code, operation, key and request id),
 * so a search can be reloaded, bookmarked and shared, and back returns to the previous one. The schema validates the
 * address's search parameters (the router's `validateSearch`); an address it cannot read shows the whole log.
 */
import * as v from "valibot";

// The router reads a search parameter as JSON when it can, so `?status=401` arrives as a number.
const filterText = v.exactOptional(
  v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.trim(), v.nonEmpty()),
);

export const requestSearch = v.fallback(
  v.object({
    requestId: filterText,
    status: filterText,
    errorCode: filterText,
    operationId: filterText,
    apiKey: filterText,
  }),
  {},
);

export type RequestFilters = v.InferOutput<typeof requestSearch>;
