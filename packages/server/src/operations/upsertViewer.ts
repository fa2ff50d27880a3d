/** Operation upsertViewer: create or update an external viewer of the merchant (viewers/upsert.ts). */
import type { Viewer } from "@org/webinar-types";
import { dependencyStep } from "../dependency";
import { upsertViewer as upsert } from "../viewers/upsert";
import type { OperationHandler } from "./handler";

export const upsertViewer: OperationHandler<"upsertViewer"> = async (
  { merchantId, body },
  services,
): Promise<{ viewer: Viewer; created: boolean }> =>
  dependencyStep("AUTH_DEPENDENCY_UNAVAILABLE", "viewer storage is temporarily unavailable", () =>
    upsert(
      { merchantId, ...body },
      {
        db: services.db,
        moderator: services.moderator,
        uidRange: { min: services.config.uidMin, max: services.config.uidMax },
        runtime: services.runtime,
      },
    ),
  );
