/**
 * The request log: the merchant's own Open API requests, newest first, accepted and refused, with filters and the
 * search by request id. A request refused for its signature opens to the canonical string the server computed.
 * The first page refreshes every few seconds, since new requests show within seconds.
 */
import { Fragment, useState } from "react";
import { consoleApi, consoleFetch, type Schemas } from "../../api/console-api";
import { dataOrThrow, useCursorPages } from "../../api/cursor-pages";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { useI18n } from "../../i18n/i18n";
import { CanonicalString } from "./canonical-string";
import { type RequestFilters, RequestFiltersForm } from "./request-filters";

type LoggedRequest = Schemas["LoggedRequest"];

const REFRESH_MS = 5000;

export function RequestsPage() {
  const { t } = useI18n();
  const [filters, setFilters] = useState<RequestFilters>({});
  const keys = consoleApi.useQuery("get", "/console/api/api-keys");
  const log = useCursorPages(
    ["get", "/console/api/requests", { params: { query: filters } }],
    async (cursor, signal) =>
      dataOrThrow(
        await consoleFetch.GET("/console/api/requests", {
          params: { query: { ...filters, ...(cursor === undefined ? {} : { cursor }) } },
          signal,
        }),
      ),
    // Only while the first page is all there is: refreshing many pages would ask for each of them again.
    { refetchInterval: (pagesLoaded) => (pagesLoaded <= 1 ? REFRESH_MS : false) },
  );
  usePageTitle(t("requests.title"));
  const items = log.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <h1>{t("requests.title")}</h1>
      <p className="lead">{t("requests.intro")}</p>
      <RequestFiltersForm apiKeys={keys.data?.items.map((key) => key.apiKey) ?? []} onApply={setFilters} />
      {log.isError ? <ErrorMessage error={log.error} /> : null}
      <p role="status" className="hint">
        {log.isSuccess ? t("requests.count", { count: items.length }) : t("common.loading")}
      </p>
      {items.length === 0 ? null : <RequestsTable items={items} />}
      {log.hasNextPage ? (
        <button type="button" className="secondary" onClick={() => void log.fetchNextPage()}>
          {t("common.more")}
        </button>
      ) : null}
    </>
  );
}

function RequestsTable({ items }: { items: LoggedRequest[] }) {
  const { t, formatDateTime } = useI18n();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t("requests.caption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("requests.at")}</th>
            <th scope="col">{t("requests.apiKey")}</th>
            <th scope="col">{t("requests.operation")}</th>
            <th scope="col">{t("requests.status")}</th>
            <th scope="col">{t("requests.errorCode")}</th>
            <th scope="col">{t("requests.requestId")}</th>
            <th scope="col">{t("requests.duration")}</th>
            <th scope="col">{t("requests.signature")}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((request) => (
            <Fragment key={request.requestId}>
              <tr data-request-id={request.requestId}>
                <td className="nowrap">{formatDateTime(request.at)}</td>
                <td>
                  <code>{request.apiKey}</code>
                </td>
                <td>{request.operationId ?? `${request.method} ${request.path}`}</td>
                <td>
                  <span className={`badge ${request.status < 400 ? "ok" : "bad"}`}>{request.status}</span>
                </td>
                <td>{request.errorCode ?? "—"}</td>
                <td>
                  <code>{request.requestId}</code>
                </td>
                <td>{t("requests.ms", { count: request.durationMs })}</td>
                <td>
                  {request.canonicalString === undefined ? null : (
                    <button
                      type="button"
                      className="secondary"
                      aria-expanded={open === request.requestId}
                      aria-controls={`canonical-${request.requestId}`}
                      onClick={() => setOpen(open === request.requestId ? null : request.requestId)}
                    >
                      {t("requests.showCanonical")}
                    </button>
                  )}
                </td>
              </tr>
              {open === request.requestId && request.canonicalString !== undefined ? (
                <tr id={`canonical-${request.requestId}`}>
                  <td colSpan={8}>
                    <CanonicalString text={request.canonicalString} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
