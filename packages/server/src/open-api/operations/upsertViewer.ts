/** Operation upsertViewer: create or update an external viewer of the merchant (viewers/upsert.ts). */
import type { Viewer } from "@org/webinar-types";
import { dependencyStep } from "../../dependency";
import type { OperationHandler } from "./handler";

export const handleUpsertViewer: OperationHandler<"upsertViewer"> = async (
  { merchantId, body },
  services,
): Promise<{ viewer: Viewer; created: boolean }> =>
  dependencyStep("AUTH_DEPENDENCY_UNAVAILABLE", "viewer storage is temporarily unavailable", () =>
    services.upsertViewer({ merchantId, ...body }),
  );
