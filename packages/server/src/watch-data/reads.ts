/**
 * The watch data as a merchant reads it, for the Open API's getWatchOverview and queryViewerWatch and for the
 * console (the same numbers, refusals and cursors), from the statistics maintained as playback sessions are
 * recorded. The webinar is looked up first (404 WEBINAR_NOT_FOUND for a code that is missing or of another
 * merchant, whatever its publication status). A storage failure is 503 WATCH_DATA_UNAVAILABLE: never zero data.
 */
import type { Kysely } from "kysely";
import type {
  GetWatchOverviewRequest,
  QueryViewerWatchRequest,
  ViewerWatchPage,
  ViewerWatchRecord,
  WatchOverview,
} from "@org/webinar-types";
import type { Database } from "../db/schema";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import { liveDataNotFinal } from "./data-state";
import { readOverview } from "./overview";
import { cursorOf, readViewerPage } from "./viewer-query";
import { type ExportedRecords, streamViewerRecords, type ViewerRecordStream } from "./viewer-stream";
import { findWatchedWebinar, type WatchedWebinar } from "./webinar-state";
import type { WebinarDirectory } from "../webinars/webinar-directory";

const UNAVAILABLE = "watch data is temporarily unavailable";

/** Where the watch-data operations read: the statistics, and the webinars (from memory). */
export interface WatchDataSources {
  db: Kysely<Database>;
  webinars: WebinarDirectory;
}

/** The merchant's webinar for watch data, or 404 WEBINAR_NOT_FOUND (another merchant's webinar included). */
export async function requireWebinar(
  { webinars }: Pick<WatchDataSources, "webinars">,
  merchantId: string,
  ticketCode: string,
): Promise<WatchedWebinar> {
  const webinar = await dependencyStep("WATCH_DATA_UNAVAILABLE", UNAVAILABLE, () =>
    findWatchedWebinar(webinars, merchantId, ticketCode),
  );
  if (webinar === null) throw new ServiceError("WEBINAR_NOT_FOUND", "no webinar with this ticketCode in this merchant");
  return webinar;
}

export async function readWatchOverview(
  sources: WatchDataSources,
  merchantId: string,
  body: GetWatchOverviewRequest,
): Promise<WatchOverview> {
  const webinar = await requireWebinar(sources, merchantId, body.ticketCode);
  return dependencyStep("WATCH_DATA_UNAVAILABLE", UNAVAILABLE, () =>
    readOverview(sources.db, webinar, body.ticketCode, body.playbackMode),
  );
}

/** Live detail records are refused while the live runs (WATCH_DATA_NOT_FINAL). */
function requireFinal(body: Pick<QueryViewerWatchRequest, "playbackMode">, webinar: WatchedWebinar): void {
  if (liveDataNotFinal(body.playbackMode, webinar)) {
    throw new ServiceError("WATCH_DATA_NOT_FINAL", "live watch data is not final yet; retry later with a new nonce");
  }
}

export async function readViewerWatch(
  sources: WatchDataSources,
  merchantId: string,
  body: QueryViewerWatchRequest,
  cursorKey: Buffer,
): Promise<ViewerWatchPage> {
  const webinar = await requireWebinar(sources, merchantId, body.ticketCode);
  const after = cursorOf(body, cursorKey);
  requireFinal(body, webinar);
  return dependencyStep("WATCH_DATA_UNAVAILABLE", UNAVAILABLE, () =>
    readViewerPage(sources.db, merchantId, webinar, body, after, cursorKey),
  );
}

/**
 * Every record of the detail query (no cursor, no page size, the stream's own order) in chunks of `chunkSize`, for
 * exports: the same refusals as a page, and the first chunk is read before this resolves, so a failure is an
 * ordinary error answer.
 */
export async function streamViewerWatch(
  sources: WatchDataSources,
  merchantId: string,
  body: ExportedRecords,
  chunkSize: number,
): Promise<{ first: ViewerWatchRecord[] | undefined; stream: ViewerRecordStream }> {
  const webinar = await requireWebinar(sources, merchantId, body.ticketCode);
  requireFinal(body, webinar);
  const stream = streamViewerRecords(sources.db, merchantId, webinar, body, chunkSize);
  const first = await dependencyStep("WATCH_DATA_UNAVAILABLE", UNAVAILABLE, () => stream.read());
  return { first, stream };
}
