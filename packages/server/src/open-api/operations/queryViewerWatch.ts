/** Operation queryViewerWatch: one page of per-viewer watch details (watch-data/reads.ts). */
import type { OperationHandler } from "./handler";
import { readViewerWatch } from "../../watch-data/reads";

export const handleQueryViewerWatch: OperationHandler<"queryViewerWatch"> = async ({ merchantId, body }, services) =>
  readViewerWatch(services, merchantId, body, services.cursorKey);
