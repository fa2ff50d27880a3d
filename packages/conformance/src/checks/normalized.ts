/**
 * What a server understood of a valid body, seen in its answer: a request vector's `normalized` result (the body
 * after trimming, with numbers read as their JSON value) against the fields a success echoes. An upsert returns the
 * viewer it wrote, an overview the ticketCode it read, a login ticket the watch link of its webinar; the detail
 * query echoes nothing, so its vectors are judged by their status alone.
 */
import type { LoginTicket, OperationId, UpsertViewerResult, WatchOverview } from "@org/webinar-types";
import { dataOf } from "../check";
import type { Answer } from "../answer";

type Fields = Record<string, unknown>;

/** The fields of `normalized` the answer must hold: `[field, expected, answered]` for each that differs. */
function differences(expected: Fields, answered: Fields, fields: readonly string[]): string[] {
  return fields
    .filter((field) => field in expected && expected[field] !== answered[field])
    .map((field) => `${field} ${JSON.stringify(answered[field])}, expected ${JSON.stringify(expected[field])}`);
}

const echoed: Record<OperationId, (normalized: Fields, answer: Answer) => string[]> = {
  upsertViewer: (normalized, answer) =>
    differences(normalized, { ...dataOf<UpsertViewerResult>(answer).viewer }, [
      "externalUserId",
      "displayName",
      "phone",
    ]),
  getWatchOverview: (normalized, answer) =>
    differences(normalized, { ...dataOf<WatchOverview>(answer) }, ["ticketCode"]),
  issueLoginTicket: (normalized, answer) => {
    const { pathname } = new URL(dataOf<LoginTicket>(answer).loginUrl);
    const watchPath = `/w/${String(normalized["ticketCode"])}`;
    return pathname.endsWith(watchPath) ? [] : [`loginUrl's path ${pathname}, expected one ending in ${watchPath}`];
  },
  queryViewerWatch: () => [],
};

/**
 * How a success answer to a valid vector differs from the vector's `normalized` body; empty when it does not, or
 * when the answer is no success (a viewer or webinar the vector names need not exist).
 */
export function normalizedDifferences(operationId: OperationId, normalized: unknown, answer: Answer): string[] {
  if (answer.status !== 200 || typeof normalized !== "object" || normalized === null) return [];
  return echoed[operationId](normalized as Fields, answer);
}
