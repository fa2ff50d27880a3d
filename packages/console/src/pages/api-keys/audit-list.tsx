/** Who changed what and when (listAuditEvents), newest first, with further pages on request. */
import { consoleFetch, type Schemas } from "../../api/console-api";
import { dataOrThrow, useCursorPages } from "../../api/cursor-pages";
import { ErrorMessage } from "../../components/error-message";
import type { MessageKey } from "../../i18n/catalogue";
import { useI18n } from "../../i18n/i18n";

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
};

/** `details` as `name: value` pairs, as text. */
function describeDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");
}

export function AuditList() {
  const { t, formatDateTime } = useI18n();
  const events = useCursorPages(["get", "/console/api/audit-events"], async (cursor, signal) =>
    dataOrThrow(
      await consoleFetch.GET("/console/api/audit-events", {
        params: { query: cursor === undefined ? {} : { cursor } },
        signal,
      }),
    ),
  );
  const items = events.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">{t("audit.title")}</h2>
      {events.isError ? <ErrorMessage error={events.error} /> : null}
      {items.length === 0 && events.isSuccess ? <p>{t("audit.empty")}</p> : null}
      {items.length === 0 ? null : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("audit.at")}</th>
                <th scope="col">{t("audit.actor")}</th>
                <th scope="col">{t("audit.action")}</th>
                <th scope="col">{t("audit.target")}</th>
                <th scope="col">{t("audit.details")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((event) => (
                <tr key={event.eventId}>
                  <td className="nowrap">{formatDateTime(event.at)}</td>
                  <td>{event.actor === null ? t("audit.operator") : event.actor.email}</td>
                  <td>{t(ACTIONS[event.action])}</td>
                  <td>
                    <code>{event.target}</code>
                  </td>
                  <td>{describeDetails(event.details)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {events.hasNextPage ? (
        <button type="button" className="secondary" onClick={() => void events.fetchNextPage()}>
          {t("common.more")}
        </button>
      ) : null}
    </section>
  );
}
