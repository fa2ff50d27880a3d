/** Operation getWatchOverview: a webinar's watch totals (watch-data/reads.ts). */
import type { OperationHandler } from "./handler";
import { readWatchOverview } from "../../watch-data/reads";

export const handleGetWatchOverview: OperationHandler<"getWatchOverview"> = async ({ merchantId, body }, services) =>
  readWatchOverview(services, merchantId, body);
