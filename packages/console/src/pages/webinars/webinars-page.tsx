/**
 * The merchant's webinars: each with its status, live state and watch link, a link to its watch data, and (for an
 * OWNER) the controls to publish or hide it, run its live and set its videos. An ANALYST sees the same list
 * without any control.
 */
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useIntl } from "react-intl";
import { CURSOR_PAGES, consoleApi, type Webinar } from "../../api/console-api";
import { useCanChange } from "../../api/session";
import { CopyButton } from "../../components/copy-button";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { CreateWebinarForm } from "./create-webinar-form";
import { useLiveLabel, useStatusLabel } from "./labels";
import { WebinarControls } from "./webinar-controls";

export function WebinarsPage() {
  const { formatMessage } = useIntl();
  const canChange = useCanChange();
  const queryClient = useQueryClient();
  const webinars = consoleApi.useInfiniteQuery("get", "/console/api/webinars", {}, CURSOR_PAGES);
  usePageTitle(formatMessage({ id: "webinars.title" }));
  const items = webinars.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <h1>{formatMessage({ id: "webinars.title" })}</h1>
      <p className="lead">{formatMessage({ id: "webinars.intro" })}</p>
      {canChange ? (
        <CreateWebinarForm
          onCreated={() =>
            void queryClient.invalidateQueries({
              queryKey: consoleApi.queryOptions("get", "/console/api/webinars").queryKey,
            })
          }
        />
      ) : (
        <p className="hint">{formatMessage({ id: "common.readOnly" })}</p>
      )}
      {webinars.isError ? <ErrorMessage error={webinars.error} /> : null}
      {webinars.isSuccess && items.length === 0 ? <p>{formatMessage({ id: "webinars.empty" })}</p> : null}
      <ul className="cards">
        {items.map((webinar) => (
          <li key={webinar.ticketCode}>
            <WebinarCard webinar={webinar} canChange={canChange} />
          </li>
        ))}
      </ul>
      {webinars.hasNextPage ? (
        <button type="button" className="secondary" onClick={() => void webinars.fetchNextPage()}>
          {formatMessage({ id: "common.more" })}
        </button>
      ) : null}
    </>
  );
}

function WebinarCard({ webinar, canChange }: { webinar: Webinar; canChange: boolean }) {
  const { formatMessage } = useIntl();
  const statusLabel = useStatusLabel();
  const liveLabel = useLiveLabel();
  return (
    <article className="card" data-ticket-code={webinar.ticketCode} aria-labelledby={`webinar-${webinar.ticketCode}`}>
      <h2 id={`webinar-${webinar.ticketCode}`}>{webinar.title ?? webinar.ticketCode}</h2>
      <dl className="pairs">
        <dt>{formatMessage({ id: "webinars.ticketCode" })}</dt>
        <dd>
          <code>{webinar.ticketCode}</code>
        </dd>
        <dt>{formatMessage({ id: "webinars.status" })}</dt>
        <dd>
          <span className={`badge ${webinar.status === "PUBLISHED" ? "ok" : "muted"}`}>
            {statusLabel(webinar.status)}
          </span>
        </dd>
        <dt>{formatMessage({ id: "webinars.live" })}</dt>
        <dd>
          <span className={`badge ${webinar.liveStatus === "LIVE" ? "live" : "muted"}`}>
            {liveLabel(webinar.liveStatus)}
          </span>
          {webinar.finalizedAt === null
            ? null
            : ` · ${formatMessage({ id: "webinars.finalizedAt" }, { at: new Date(webinar.finalizedAt) })}`}
        </dd>
        <dt>{formatMessage({ id: "webinars.watchLink" })}</dt>
        <dd>
          <a href={webinar.watchUrl} target="_blank" rel="noopener noreferrer">
            {webinar.watchUrl}
          </a>{" "}
          <CopyButton text={webinar.watchUrl} label={formatMessage({ id: "webinars.copyLink" })} />
        </dd>
      </dl>
      <p>
        <Link to="/webinars/$ticketCode" params={{ ticketCode: webinar.ticketCode }}>
          {formatMessage({ id: "webinars.openWatchData" }, { title: webinar.title ?? webinar.ticketCode })}
        </Link>
      </p>
      {canChange ? <WebinarControls webinar={webinar} /> : null}
    </article>
  );
}
