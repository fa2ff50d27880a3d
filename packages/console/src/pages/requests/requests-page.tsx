/**
 * The request log: the merchant's own Open API requests, newest first, accepted and refused, with filters and the
 * search by request id, kept in the address (request-search.ts). A request refused for its signature opens to the
 * canonical string the server computed. The first page refreshes every few seconds, since new requests show within
 * seconds.
 */
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { useIntl } from "react-intl";
import { CURSOR_PAGES, consoleApi, type Schemas } from "../../api/console-api";
import { DataTable } from "../../components/data-table";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { CanonicalString } from "./canonical-string";
import { RequestFiltersForm } from "./request-filters";

type LoggedRequest = Schemas["LoggedRequest"];

const requestsRoute = getRouteApi("/signed-in/requests");

const REFRESH_MS = 5000;

export function RequestsPage() {
  const { formatMessage } = useIntl();
  const filters = requestsRoute.useSearch();
  const navigate = requestsRoute.useNavigate();
  const keys = consoleApi.useQuery("get", "/console/api/api-keys");
  const log = consoleApi.useInfiniteQuery(
    "get",
    "/console/api/requests",
    { params: { query: filters } },
    {
      ...CURSOR_PAGES,
      // Only while the first page is all there is: refreshing many pages would ask for each of them again.
      refetchInterval: (query) => ((query.state.data?.pages.length ?? 0) <= 1 ? REFRESH_MS : false),
    },
  );
  usePageTitle(formatMessage({ id: "requests.title" }));
  const items = log.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <h1>{formatMessage({ id: "requests.title" })}</h1>
      <p className="lead">{formatMessage({ id: "requests.intro" })}</p>
      <RequestFiltersForm
        applied={filters}
        apiKeys={keys.data?.items.map((key) => key.apiKey) ?? []}
        onApply={(next) => void navigate({ search: next, resetScroll: false })}
      />
      {log.isError ? <ErrorMessage error={log.error} /> : null}
      <p role="status" className="hint">
        {log.isSuccess
          ? formatMessage({ id: "requests.count" }, { count: items.length })
          : formatMessage({ id: "common.loading" })}
      </p>
      {items.length === 0 ? null : <RequestsTable items={items} />}
      {log.hasNextPage ? (
        <button type="button" className="secondary" onClick={() => void log.fetchNextPage()}>
          {formatMessage({ id: "common.more" })}
        </button>
      ) : null}
    </>
  );
}

function RequestsTable({ items }: { items: LoggedRequest[] }) {
  const { formatMessage, formatDate } = useIntl();
  const [open, setOpen] = useState<string | null>(null);
  const detailId = (request: LoggedRequest) => `canonical-${request.requestId}`;
  return (
    <DataTable
      caption="requests.caption"
      rows={items}
      rowKey={(request) => request.requestId}
      rowData={(request) => ({ "data-request-id": request.requestId })}
      columns={[
        { header: "requests.at", cell: (request) => formatDate(request.at, { format: "second" }) },
        { header: "requests.apiKey", cell: (request) => <code>{request.apiKey}</code> },
        { header: "requests.operation", cell: (request) => request.operationId ?? `${request.method} ${request.path}` },
        {
          header: "requests.status",
          cell: (request) => <span className={`badge ${request.status < 400 ? "ok" : "bad"}`}>{request.status}</span>,
        },
        {
          header: "requests.errorCode",
          cell: (request) => (request.errorCode === null ? "—" : <code>{request.errorCode}</code>),
        },
        { header: "requests.requestId", cell: (request) => <code>{request.requestId}</code> },
        {
          header: "requests.duration",
          cell: (request) => formatMessage({ id: "requests.ms" }, { count: request.durationMs }),
        },
        {
          header: "requests.signature",
          cell: (request) =>
            request.canonicalString === undefined ? null : (
              <button
                type="button"
                className="secondary"
                aria-expanded={open === request.requestId}
                aria-controls={detailId(request)}
                onClick={() => setOpen(open === request.requestId ? null : request.requestId)}
              >
                {formatMessage({ id: "requests.showCanonical" })}
              </button>
            ),
        },
      ]}
      detail={(request) =>
        open === request.requestId && request.canonicalString !== undefined
          ? { id: detailId(request), content: <CanonicalString text={request.canonicalString} /> }
          : null
      }
    />
  );
}
