/**
 * The viewers table: the Open API's detail query (queryViewers) for the chosen mode, its sorts, filters and cursor
 * pages. The cursors of the pages already seen are kept, so "Previous" goes back without asking again for them.
 */
import { useState } from "react";
import { consoleApi, errorCodeOf, type Mode, type Schemas } from "../../api/console-api";
import { ErrorMessage } from "../../components/error-message";
import { useI18n } from "../../i18n/i18n";
import { useDuration } from "./duration";
import { FIRST_QUERY, type ViewerQuery, ViewerQueryForm } from "./viewer-query-form";

type ViewerRecord = Schemas["ViewerWatchRecord"];

export function ViewersTable({ ticketCode, mode }: { ticketCode: string; mode: Mode }) {
  const { t } = useI18n();
  const [query, setQuery] = useState<ViewerQuery>(FIRST_QUERY);
  // cursors[i] opens page i + 1; page 0 has none.
  const [cursors, setCursors] = useState<string[]>([]);
  const [pageIndex, setPageIndex] = useState(0);
  const cursor = pageIndex === 0 ? undefined : cursors[pageIndex - 1];
  const page = consoleApi.useQuery(
    "post",
    "/console/api/webinars/{ticketCode}/watch/viewers/query",
    { params: { path: { ticketCode } }, body: { ...query, mode, ...(cursor === undefined ? {} : { cursor }) } },
    { placeholderData: (previous) => previous },
  );
  const apply = (next: ViewerQuery) => {
    setQuery(next);
    setCursors([]);
    setPageIndex(0);
  };
  const next = page.data?.nextCursor;
  const goNext = () => {
    if (next === undefined) return;
    setCursors([...cursors.slice(0, pageIndex), next]);
    setPageIndex(pageIndex + 1);
  };
  const notFinal = page.isError && errorCodeOf(page.error) === "WATCH_DATA_NOT_FINAL";
  return (
    <section aria-labelledby="viewers-title">
      <h2 id="viewers-title">{t("viewers.title")}</h2>
      <ViewerQueryForm onApply={apply} />
      {notFinal ? (
        <p role="alert" className="notice-text">
          {t("viewers.notFinal")}
        </p>
      ) : page.isError ? (
        <ErrorMessage error={page.error} />
      ) : null}
      {page.data === undefined || page.isError ? null : <RecordsTable records={page.data.items} />}
      <nav className="pager" aria-label={t("viewers.pages")}>
        <button
          type="button"
          className="secondary"
          disabled={pageIndex === 0}
          onClick={() => setPageIndex(pageIndex - 1)}
        >
          {t("viewers.previous")}
        </button>
        <span role="status">{t("viewers.page", { page: pageIndex + 1 })}</span>
        <button type="button" className="secondary" disabled={next === undefined || page.isFetching} onClick={goNext}>
          {t("viewers.next")}
        </button>
      </nav>
    </section>
  );
}

function RecordsTable({ records }: { records: ViewerRecord[] }) {
  const { t, formatDateTime } = useI18n();
  const duration = useDuration();
  if (records.length === 0) return <p>{t("viewers.empty")}</p>;
  return (
    <div className="table-wrap">
      <table data-testid="viewers">
        <caption className="visually-hidden">{t("viewers.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("viewers.uid")}</th>
            <th scope="col">{t("viewers.externalId")}</th>
            <th scope="col">{t("viewers.name")}</th>
            <th scope="col">{t("viewers.phone")}</th>
            <th scope="col">{t("viewers.total")}</th>
            <th scope="col">{t("viewers.live")}</th>
            <th scope="col">{t("viewers.replay")}</th>
            <th scope="col">{t("viewers.sessions")}</th>
            <th scope="col">{t("viewers.first")}</th>
            <th scope="col">{t("viewers.last")}</th>
            <th scope="col">{t("viewers.devices")}</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.subjectId} data-uid={record.uid} data-total-seconds={record.totalWatchSeconds}>
              <td>{record.uid}</td>
              <td>{record.externalUserId ?? "—"}</td>
              <td>{record.displayName ?? record.displayNickname}</td>
              <td>{record.phone ?? "—"}</td>
              <td>{duration(record.totalWatchSeconds)}</td>
              <td>{duration(record.liveWatchSeconds)}</td>
              <td>{duration(record.replayWatchSeconds)}</td>
              <td>{record.sessionCount}</td>
              <td>{formatDateTime(record.firstWatchedAt)}</td>
              <td>{formatDateTime(record.lastWatchedAt)}</td>
              <td>{[...record.deviceTypes, ...record.protocols].join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
