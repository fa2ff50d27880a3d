/** Operation getWatchOverview: a webinar's watch totals (operations/watch-data.ts). */
import type { OperationHandler } from "./handler";
import { readWatchOverview } from "./watch-data";

export const handleGetWatchOverview: OperationHandler<"getWatchOverview"> = async ({ merchantId, body }, services) =>
  readWatchOverview(services, merchantId, body);
