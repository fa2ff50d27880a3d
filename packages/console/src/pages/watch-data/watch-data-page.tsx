/**
 * A webinar's watch data, at `/console/webinars/{ticketCode}`: the overview of the three scopes, charts and the
 * viewers table for the chosen mode, and the CSV export. While the live runs, the overview and the charts are
 * asked again every few seconds, so they show what the Open API answers at that moment.
 */
import { lazy, Suspense, useId, useState } from "react";
import { consoleApi, type Mode } from "../../api/console-api";
import { consoleEnums } from "../../api/console-schema.gen";
import { exportViewersHref } from "../../api/export-link";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { useI18n } from "../../i18n/i18n";
import { Link } from "../../routing/router";
import { useLiveLabel } from "../webinars/labels";
import { MODE_LABELS, Overview } from "./overview";
import { ViewersTable } from "./viewers-table";

// ECharts is the largest dependency: it loads with the charts, after the figures are on screen.
const WatchCharts = lazy(() => import("../../charts/watch-charts"));

const LIVE_REFRESH_MS = 10_000;

export default function WatchDataPage({ ticketCode }: { ticketCode: string }) {
  const { t } = useI18n();
  const liveLabel = useLiveLabel();
  const [mode, setMode] = useState<Mode>("ALL");
  const modeName = useId();
  const webinar = consoleApi.useQuery(
    "get",
    "/console/api/webinars/{ticketCode}",
    { params: { path: { ticketCode } } },
    { refetchInterval: (query) => (query.state.data?.webinar.liveStatus === "LIVE" ? LIVE_REFRESH_MS : false) },
  );
  const title = webinar.data?.webinar.title ?? ticketCode;
  usePageTitle(t("watch.title", { title }));
  if (webinar.isError)
    return (
      <>
        <h1>{t("watch.title", { title: ticketCode })}</h1>
        <ErrorMessage error={webinar.error} />
        <p>
          <Link to={{ page: "webinars" }}>{t("watch.back")}</Link>
        </p>
      </>
    );
  const live = webinar.data?.webinar.liveStatus === "LIVE";
  const refreshMs = live ? LIVE_REFRESH_MS : false;
  return (
    <>
      <p>
        <Link to={{ page: "webinars" }}>{t("watch.back")}</Link>
      </p>
      <h1>{t("watch.title", { title })}</h1>
      {webinar.data === undefined ? null : (
        <p className="lead">
          <span className={`badge ${live ? "live" : "muted"}`}>{liveLabel(webinar.data.webinar.liveStatus)}</span>{" "}
          {live ? t("watch.refreshing", { seconds: LIVE_REFRESH_MS / 1000 }) : null}
        </p>
      )}
      <Overview ticketCode={ticketCode} refreshMs={refreshMs} />
      <section aria-labelledby="details-title">
        <h2 id="details-title">{t("watch.detailsTitle")}</h2>
        <fieldset className="modes">
          <legend>{t("watch.mode")}</legend>
          {consoleEnums.modes.map((value) => (
            <label key={value}>
              <input
                type="radio"
                name={modeName}
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
              />
              {t(MODE_LABELS[value])}
            </label>
          ))}
        </fieldset>
        <p>
          <a className="button secondary" href={exportViewersHref(ticketCode, mode)} download>
            {t("watch.export", { mode: t(MODE_LABELS[mode]) })}
          </a>
        </p>
        <h3>{t("charts.title")}</h3>
        <Suspense fallback={<p role="status">{t("common.loading")}</p>}>
          <WatchCharts ticketCode={ticketCode} mode={mode} refreshMs={refreshMs} />
        </Suspense>
      </section>
      <ViewersTable ticketCode={ticketCode} mode={mode} />
    </>
  );
}
