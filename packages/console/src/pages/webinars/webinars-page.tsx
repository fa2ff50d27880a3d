/**
 * The merchant's webinars: each with its status, live state and watch link, a link to its watch data, and (for an
 * OWNER) the controls to publish or hide it, run its live and set its videos. An ANALYST sees the same list
 * without any control.
 */
import { useQueryClient } from "@tanstack/react-query";
import { consoleFetch, type Webinar } from "../../api/console-api";
import { dataOrThrow, useCursorPages } from "../../api/cursor-pages";
import { useCanChange } from "../../api/session";
import { CopyButton } from "../../components/copy-button";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { useI18n } from "../../i18n/i18n";
import { Link } from "../../routing/router";
import { CreateWebinarForm } from "./create-webinar-form";
import { useLiveLabel, useStatusLabel } from "./labels";
import { WebinarControls } from "./webinar-controls";

export function WebinarsPage() {
  const { t } = useI18n();
  const canChange = useCanChange();
  const queryClient = useQueryClient();
  const webinars = useCursorPages(["get", "/console/api/webinars"], async (cursor, signal) =>
    dataOrThrow(
      await consoleFetch.GET("/console/api/webinars", {
        params: { query: cursor === undefined ? {} : { cursor } },
        signal,
      }),
    ),
  );
  usePageTitle(t("webinars.title"));
  const items = webinars.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <h1>{t("webinars.title")}</h1>
      <p className="lead">{t("webinars.intro")}</p>
      {canChange ? (
        <CreateWebinarForm
          onCreated={() => void queryClient.invalidateQueries({ queryKey: ["get", "/console/api/webinars"] })}
        />
      ) : (
        <p className="hint">{t("common.readOnly")}</p>
      )}
      {webinars.isError ? <ErrorMessage error={webinars.error} /> : null}
      {webinars.isSuccess && items.length === 0 ? <p>{t("webinars.empty")}</p> : null}
      <ul className="cards">
        {items.map((webinar) => (
          <li key={webinar.ticketCode}>
            <WebinarCard webinar={webinar} canChange={canChange} />
          </li>
        ))}
      </ul>
      {webinars.hasNextPage ? (
        <button type="button" className="secondary" onClick={() => void webinars.fetchNextPage()}>
          {t("common.more")}
        </button>
      ) : null}
    </>
  );
}

function WebinarCard({ webinar, canChange }: { webinar: Webinar; canChange: boolean }) {
  const { t, formatDateTime } = useI18n();
  const statusLabel = useStatusLabel();
  const liveLabel = useLiveLabel();
  return (
    <article className="card" data-ticket-code={webinar.ticketCode} aria-labelledby={`webinar-${webinar.ticketCode}`}>
      <h2 id={`webinar-${webinar.ticketCode}`}>{webinar.title ?? webinar.ticketCode}</h2>
      <dl className="pairs">
        <dt>{t("webinars.ticketCode")}</dt>
        <dd>
          <code>{webinar.ticketCode}</code>
        </dd>
        <dt>{t("webinars.status")}</dt>
        <dd>
          <span className={`badge ${webinar.status === "PUBLISHED" ? "ok" : "muted"}`}>
            {statusLabel(webinar.status)}
          </span>
        </dd>
        <dt>{t("webinars.live")}</dt>
        <dd>
          <span className={`badge ${webinar.liveStatus === "LIVE" ? "live" : "muted"}`}>
            {liveLabel(webinar.liveStatus)}
          </span>
          {webinar.finalizedAt === null
            ? null
            : ` · ${t("webinars.finalizedAt", { at: formatDateTime(webinar.finalizedAt, "minute") })}`}
        </dd>
        <dt>{t("webinars.watchLink")}</dt>
        <dd>
          <a href={webinar.watchUrl} target="_blank" rel="noopener noreferrer">
            {webinar.watchUrl}
          </a>{" "}
          <CopyButton text={webinar.watchUrl} label={t("webinars.copyLink")} />
        </dd>
      </dl>
      <p>
        <Link to={{ page: "watchData", ticketCode: webinar.ticketCode }}>
          {t("webinars.openWatchData", { title: webinar.title ?? webinar.ticketCode })}
        </Link>
      </p>
      {canChange ? <WebinarControls webinar={webinar} /> : null}
    </article>
  );
}
