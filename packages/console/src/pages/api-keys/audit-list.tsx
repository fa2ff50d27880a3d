/** Who changed what and when (listAuditEvents), newest first, with further pages on request. */
import { useIntl } from "react-intl";
import { CURSOR_PAGES, consoleApi, type Schemas } from "../../api/console-api";
import { DataTable } from "../../components/data-table";
import { ErrorMessage } from "../../components/error-message";
import type { MessageKey } from "../../i18n/catalogue";

type AuditAction = Schemas["AuditAction"];

const ACTIONS: Record<AuditAction, MessageKey> = {
  API_KEY_CREATED: "audit.API_KEY_CREATED",
  API_KEY_REVOKED: "audit.API_KEY_REVOKED",
  API_KEY_ROLLED: "audit.API_KEY_ROLLED",
  WEBINAR_CREATED: "audit.WEBINAR_CREATED",
  WEBINAR_STATUS_SET: "audit.WEBINAR_STATUS_SET",
  WEBINAR_VIDEOS_SET: "audit.WEBINAR_VIDEOS_SET",
  LIVE_ACTION: "audit.LIVE_ACTION",
  LIVE_DATA_FINALIZED: "audit.LIVE_DATA_FINALIZED",
  PERSON_INVITED: "audit.PERSON_INVITED",
  PERSON_ROLE_CHANGED: "audit.PERSON_ROLE_CHANGED",
  PERSON_REMOVED: "audit.PERSON_REMOVED",
  TWO_FACTOR_ENABLED: "audit.TWO_FACTOR_ENABLED",
  TWO_FACTOR_DISABLED: "audit.TWO_FACTOR_DISABLED",
  TWO_FACTOR_REQUIREMENT_SET: "audit.TWO_FACTOR_REQUIREMENT_SET",
};

/** `details` as `name: value` pairs, as text. */
function describeDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");
}

export function AuditList() {
  const { formatMessage, formatDate } = useIntl();
  const events = consoleApi.useInfiniteQuery("get", "/console/api/audit-events", {}, CURSOR_PAGES);
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">{formatMessage({ id: "audit.title" })}</h2>
      {events.isError ? <ErrorMessage error={events.error} /> : null}
      {items.length === 0 && events.isSuccess ? <p>{formatMessage({ id: "audit.empty" })}</p> : null}
      {items.length === 0 ? null : (
        <DataTable
          rows={items}
          rowKey={(event) => event.eventId}
          columns={[
            { header: "audit.at", cell: (event) => formatDate(event.at, { format: "second" }) },
            {
              header: "audit.actor",
              cell: (event) => (event.actor === null ? formatMessage({ id: "audit.operator" }) : event.actor.email),
            },
            { header: "audit.action", cell: (event) => formatMessage({ id: ACTIONS[event.action] }) },
            { header: "audit.target", cell: (event) => <code>{event.target}</code> },
            { header: "audit.details", cell: (event) => describeDetails(event.details) },
          ]}
        />
      )}
      {events.hasNextPage ? (
        <button type="button" className="secondary" onClick={() => void events.fetchNextPage()}>
          {formatMessage({ id: "common.more" })}
        </button>
      ) : null}
    </section>
  );
}
