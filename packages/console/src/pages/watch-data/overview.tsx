/**
 * The overview of a webinar's watch data for the three scopes, LIVE, REPLAY and ALL: the same figures the Open
 * API's getWatchOverview answers, with each scope's dataState in words (how settled its figures are).
 */
import { consoleApi, type Mode, type Schemas } from "../../api/console-api";
import { consoleEnums } from "@org/webinar-console-contract";
import { ErrorMessage } from "../../components/error-message";
import type { MessageKey } from "../../i18n/catalogue";
import { useIntl } from "react-intl";
import { useDuration } from "./duration";

type DataState = Schemas["DataState"];
type WatchStats = Schemas["WatchStats"];

const STATE_LABELS: Record<DataState, { name: MessageKey; explain: MessageKey }> = {
  PROVISIONAL: { name: "dataState.PROVISIONAL", explain: "dataState.PROVISIONAL.explain" },
  FINALIZING: { name: "dataState.FINALIZING", explain: "dataState.FINALIZING.explain" },
  FINAL: { name: "dataState.FINAL", explain: "dataState.FINAL.explain" },
};

export const MODE_LABELS: Record<Mode, MessageKey> = {
  LIVE: "mode.LIVE",
  REPLAY: "mode.REPLAY",
  ALL: "mode.ALL",
};

export function Overview({ ticketCode, refreshMs }: { ticketCode: string; refreshMs: number | false }) {
  const { formatMessage } = useIntl();
  return (
    <section aria-labelledby="overview-title">
      <h2 id="overview-title">{formatMessage({ id: "watch.overviewTitle" })}</h2>
      <div className="scopes">
        {consoleEnums.modes.map((mode) => (
          <ScopeOverview key={mode} ticketCode={ticketCode} mode={mode} refreshMs={refreshMs} />
        ))}
      </div>
    </section>
  );
}

function ScopeOverview({ ticketCode, mode, refreshMs }: { ticketCode: string; mode: Mode; refreshMs: number | false }) {
  const { formatMessage } = useIntl();
  const overview = consoleApi.useQuery(
    "get",
    "/console/api/webinars/{ticketCode}/watch/overview",
    { params: { path: { ticketCode }, query: { mode } } },
    { refetchInterval: refreshMs },
  );
  const data = overview.data;
  return (
    <section className="card scope" data-scope={mode} aria-labelledby={`scope-${mode}`}>
      <h3 id={`scope-${mode}`}>{formatMessage({ id: MODE_LABELS[mode] })}</h3>
      {overview.isError ? <ErrorMessage error={overview.error} /> : null}
      {data === undefined ? null : (
        <>
          <p>
            <span className={`badge state-${data.dataState.toLowerCase()}`} data-field="dataState">
              {formatMessage({ id: STATE_LABELS[data.dataState].name })}
            </span>
          </p>
          <p className="hint">{formatMessage({ id: STATE_LABELS[data.dataState].explain })}</p>
          <StatsTable mode={mode} rows={{ all: data.all, registered: data.registered, anonymous: data.anonymous }} />
          {data.dataUpdatedAt === undefined ? null : (
            <p className="hint">{formatMessage({ id: "watch.updatedAt" }, { at: new Date(data.dataUpdatedAt) })}</p>
          )}
        </>
      )}
    </section>
  );
}

function StatsTable({ mode, rows }: { mode: Mode; rows: Record<"all" | "registered" | "anonymous", WatchStats> }) {
  const { formatMessage, formatNumber } = useIntl();
  const duration = useDuration();
  const names: Record<keyof typeof rows, MessageKey> = {
    all: "watch.subjectsAll",
    registered: "watch.subjectsRegistered",
    anonymous: "watch.subjectsAnonymous",
  };
  return (
    <table className="compact">
      <caption className="visually-hidden">
        {formatMessage({ id: "watch.statsCaption" }, { mode: formatMessage({ id: MODE_LABELS[mode] }) })}
      </caption>
      <thead>
        <tr>
          <td />
          <th scope="col">{formatMessage({ id: "watch.viewers" })}</th>
          <th scope="col">{formatMessage({ id: "watch.sessions" })}</th>
          <th scope="col">{formatMessage({ id: "watch.watchTime" })}</th>
        </tr>
      </thead>
      <tbody>
        {(Object.keys(names) as (keyof typeof rows)[]).map((row) => (
          <tr key={row}>
            <th scope="row">{formatMessage({ id: names[row] })}</th>
            <td data-field={`${row}.viewerCount`} data-value={rows[row].viewerCount}>
              {formatNumber(rows[row].viewerCount)}
            </td>
            <td data-field={`${row}.sessionCount`} data-value={rows[row].sessionCount}>
              {formatNumber(rows[row].sessionCount)}
            </td>
            <td data-field={`${row}.watchSeconds`} data-value={rows[row].watchSeconds}>
              {duration(rows[row].watchSeconds)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
