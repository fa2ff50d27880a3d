/**
 * The viewers table: the Open API's detail query (queryViewers) for the chosen mode, its sorts, filters and cursor
 * pages. The address holds the cursors of the pages opened so far, so "Previous" goes back without asking the
 * server for a cursor again, and a reload shows the same page.
 */
import { keepPreviousData } from "@tanstack/react-query";
import { useIntl } from "react-intl";
import { consoleApi, errorCodeOf, type Schemas } from "../../api/console-api";
import { DataTable } from "../../components/data-table";
import { ErrorMessage } from "../../components/error-message";
import { useDuration } from "./duration";
import { ViewerQueryForm } from "./viewer-query-form";
import { firstPage, type ViewerSearch, viewerQueryBody } from "./viewer-search";

type ViewerRecord = Schemas["ViewerWatchRecord"];

export function ViewersTable({
  ticketCode,
  search,
  onShow,
}: {
  ticketCode: string;
  search: ViewerSearch;
  onShow(search: ViewerSearch): void;
}) {
  const { formatMessage } = useIntl();
  const page = consoleApi.useQuery(
    "post",
    "/console/api/webinars/{ticketCode}/watch/viewers/query",
    { params: { path: { ticketCode } }, body: viewerQueryBody(search) },
    { placeholderData: keepPreviousData },
  );
  const { cursors = [], ...query } = search;
  const next = page.data?.nextCursor;
  const goNext = () => {
    if (next !== undefined) onShow({ ...query, cursors: [...cursors, next] });
  };
  const goPrevious = () => onShow(cursors.length > 1 ? { ...query, cursors: cursors.slice(0, -1) } : query);
  const notFinal = page.isError && errorCodeOf(page.error) === "WATCH_DATA_NOT_FINAL";
  return (
    <section aria-labelledby="viewers-title">
      <h2 id="viewers-title">{formatMessage({ id: "viewers.title" })}</h2>
      <ViewerQueryForm applied={query} onApply={(applied) => onShow(firstPage({ mode: search.mode, ...applied }))} />
      {notFinal ? (
        <p role="alert" className="notice-text">
          {formatMessage({ id: "viewers.notFinal" })}
        </p>
      ) : page.isError ? (
        <ErrorMessage error={page.error} />
      ) : null}
      {page.data === undefined || page.isError ? null : <RecordsTable records={page.data.items} />}
      <nav className="pager" aria-label={formatMessage({ id: "viewers.pages" })}>
        <button type="button" className="secondary" disabled={cursors.length === 0} onClick={goPrevious}>
          {formatMessage({ id: "viewers.previous" })}
        </button>
        <span role="status">{formatMessage({ id: "viewers.page" }, { page: cursors.length + 1 })}</span>
        <button type="button" className="secondary" disabled={next === undefined || page.isFetching} onClick={goNext}>
          {formatMessage({ id: "viewers.next" })}
        </button>
      </nav>
    </section>
  );
}

function RecordsTable({ records }: { records: ViewerRecord[] }) {
  const { formatMessage, formatDate } = useIntl();
  const duration = useDuration();
  if (records.length === 0) return <p>{formatMessage({ id: "viewers.empty" })}</p>;
  return (
    <DataTable
      testId="viewers"
      caption="viewers.title"
      rows={records}
      rowKey={(record) => record.subjectId}
      rowData={(record) => ({ "data-uid": record.uid, "data-total-seconds": record.totalWatchSeconds })}
      columns={[
        { header: "viewers.uid", cell: (record) => record.uid },
        { header: "viewers.externalId", cell: (record) => record.externalUserId ?? "—" },
        { header: "viewers.name", cell: (record) => record.displayName ?? record.displayNickname },
        { header: "viewers.phone", cell: (record) => record.phone ?? "—" },
        { header: "viewers.total", cell: (record) => duration(record.totalWatchSeconds) },
        { header: "viewers.live", cell: (record) => duration(record.liveWatchSeconds) },
        { header: "viewers.replay", cell: (record) => duration(record.replayWatchSeconds) },
        { header: "viewers.sessions", cell: (record) => record.sessionCount },
        { header: "viewers.first", cell: (record) => formatDate(record.firstWatchedAt, { format: "second" }) },
        { header: "viewers.last", cell: (record) => formatDate(record.lastWatchedAt, { format: "second" }) },
        { header: "viewers.devices", cell: (record) => [...record.deviceTypes, ...record.protocols].join(", ") },
      ]}
    />
  );
}
