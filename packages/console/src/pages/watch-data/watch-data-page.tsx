/**
 * A webinar's watch data, at `/console/webinars/{ticketCode}`: the overview of the three scopes, charts and the
 * viewers table for the chosen mode, and the CSV export. The mode and the viewers table's query and page are in the
 * address (viewer-search.ts). While the live runs, the overview and the charts are asked again every few seconds,
 * so they show what the Open API answers at that moment.
 */
import { getRouteApi, Link } from "@tanstack/react-router";
import { lazy, Suspense, useId } from "react";
import { useIntl } from "react-intl";
import { consoleApi } from "../../api/console-api";
import { consoleEnums } from "@org/webinar-console-contract";
import { exportViewersHref } from "../../api/export-link";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { useLiveLabel } from "../webinars/labels";
import { MODE_LABELS, Overview } from "./overview";
import { firstPage, type ViewerSearch } from "./viewer-search";
import { ViewersTable } from "./viewers-table";

// ECharts is the largest dependency: it loads with the charts, after the figures are on screen.
const WatchCharts = lazy(() => import("../../charts/watch-charts"));

const watchDataRoute = getRouteApi("/signed-in/webinars/$ticketCode");

const LIVE_REFRESH_MS = 10_000;

export default function WatchDataPage() {
  const { formatMessage } = useIntl();
  const liveLabel = useLiveLabel();
  const { ticketCode } = watchDataRoute.useParams();
  const search = watchDataRoute.useSearch();
  const navigate = watchDataRoute.useNavigate();
  // Each change is a new entry in the browser's history, so back returns to the page before; the scroll stays.
  const show = (next: ViewerSearch) => void navigate({ search: next, resetScroll: false });
  const modeName = useId();
  const webinar = consoleApi.useQuery(
    "get",
    "/console/api/webinars/{ticketCode}",
    { params: { path: { ticketCode } } },
    { refetchInterval: (query) => (query.state.data?.webinar.liveStatus === "LIVE" ? LIVE_REFRESH_MS : false) },
  );
  const title = webinar.data?.webinar.title ?? ticketCode;
  usePageTitle(formatMessage({ id: "watch.title" }, { title }));
  if (webinar.isError)
    return (
      <>
        <h1>{formatMessage({ id: "watch.title" }, { title: ticketCode })}</h1>
        <ErrorMessage error={webinar.error} />
        <p>
          <Link to="/webinars">{formatMessage({ id: "watch.back" })}</Link>
        </p>
      </>
    );
  const live = webinar.data?.webinar.liveStatus === "LIVE";
  const refreshMs = live ? LIVE_REFRESH_MS : false;
  return (
    <>
      <p>
        <Link to="/webinars">{formatMessage({ id: "watch.back" })}</Link>
      </p>
      <h1>{formatMessage({ id: "watch.title" }, { title })}</h1>
      {webinar.data === undefined ? null : (
        <p className="lead">
          <span className={`badge ${live ? "live" : "muted"}`}>{liveLabel(webinar.data.webinar.liveStatus)}</span>{" "}
          {live ? formatMessage({ id: "watch.refreshing" }, { seconds: LIVE_REFRESH_MS / 1000 }) : null}
        </p>
      )}
      <Overview ticketCode={ticketCode} refreshMs={refreshMs} />
      <section aria-labelledby="details-title">
        <h2 id="details-title">{formatMessage({ id: "watch.detailsTitle" })}</h2>
        <fieldset className="modes">
          <legend>{formatMessage({ id: "watch.mode" })}</legend>
          {consoleEnums.modes.map((value) => (
            <label key={value}>
              <input
                type="radio"
                name={modeName}
                value={value}
                checked={search.mode === value}
                onChange={() => show(firstPage({ ...search, mode: value }))}
              />
              {formatMessage({ id: MODE_LABELS[value] })}
            </label>
          ))}
        </fieldset>
        <p>
          <a className="button secondary" href={exportViewersHref(ticketCode, search.mode)} download>
            {formatMessage({ id: "watch.export" }, { mode: formatMessage({ id: MODE_LABELS[search.mode] }) })}
          </a>
        </p>
        <h3>{formatMessage({ id: "charts.title" })}</h3>
        <Suspense fallback={<p role="status">{formatMessage({ id: "common.loading" })}</p>}>
          <WatchCharts ticketCode={ticketCode} mode={search.mode} refreshMs={refreshMs} />
        </Suspense>
      </section>
      <ViewersTable ticketCode={ticketCode} search={search} onShow={show} />
    </>
  );
}
