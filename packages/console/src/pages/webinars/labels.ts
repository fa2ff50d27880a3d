/** Words for a webinar's status and live state, in the chosen language. */
import type { Schemas } from "../../api/console-api";
import { consoleEnums } from "../../api/console-schema.gen";
import type { MessageKey } from "../../i18n/catalogue";
import { useI18n } from "../../i18n/i18n";

type WebinarStatus = Schemas["WebinarStatus"];
type LiveStatus = Schemas["LiveStatus"];

const STATUS_LABELS: Record<WebinarStatus, MessageKey> = {
  DRAFT: "status.DRAFT",
  PUBLISHED: "status.PUBLISHED",
  HIDDEN: "status.HIDDEN",
  SUSPENDED: "status.SUSPENDED",
};

const LIVE_LABELS: Record<LiveStatus, MessageKey> = {
  NOT_STARTED: "live.NOT_STARTED",
  LIVE: "live.LIVE",
  ENDED: "live.ENDED",
  CANCELLED: "live.CANCELLED",
  FAILED: "live.FAILED",
};

/** The statuses a person may choose: SUSPENDED is the operator's decision, not the merchant's. */
export const WEBINAR_STATUSES: WebinarStatus[] = consoleEnums.webinarStatuses.filter(
  (status) => status !== "SUSPENDED",
);

export function useStatusLabel(): (status: WebinarStatus) => string {
  const { t } = useI18n();
  return (status) => t(STATUS_LABELS[status]);
}

export function useLiveLabel(): (live: LiveStatus) => string {
  const { t } = useI18n();
  return (live) => t(LIVE_LABELS[live]);
}
