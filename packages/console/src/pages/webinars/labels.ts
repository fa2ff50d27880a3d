/** Words for a webinar's status and live state, in the chosen language. */
import type { Schemas } from "../../api/console-api";
import { consoleEnums } from "@org/webinar-console-contract";
import type { MessageKey } from "../../i18n/catalogue";
import { useIntl } from "react-intl";

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
  const { formatMessage } = useIntl();
  return (status) => formatMessage({ id: STATUS_LABELS[status] });
}

export function useLiveLabel(): (live: LiveStatus) => string {
  const { formatMessage } = useIntl();
  return (live) => formatMessage({ id: LIVE_LABELS[live] });
}
