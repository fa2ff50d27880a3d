/** Operation queryViewerWatch: one page of per-viewer watch details (operations/watch-data.ts). */
import type { OperationHandler } from "./handler";
import { readViewerWatch } from "./watch-data";

export const handleQueryViewerWatch: OperationHandler<"queryViewerWatch"> = async ({ merchantId, body }, services) =>
  readViewerWatch(services, merchantId, body, services.cursorKey);
