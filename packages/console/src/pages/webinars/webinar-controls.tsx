/**
 * What an OWNER changes on a webinar: publish or hide it, start, end, cancel or fail its live, finalize its live
 * data, and set its video URLs. The buttons offered follow runLive's lifecycle; ending a live asks first.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { consoleApi, type Schemas, type Webinar } from "../../api/console-api";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { ErrorMessage } from "../../components/error-message";
import type { MessageKey } from "../../i18n/catalogue";
import { useIntl } from "react-intl";

type LiveAction = Schemas["LiveActionRequest"]["action"];

/** runLive's actions that change something from each live state. */
const LIVE_ACTIONS: Record<Schemas["LiveStatus"], LiveAction[]> = {
  NOT_STARTED: ["START", "CANCEL", "FAIL"],
  LIVE: ["END", "CANCEL", "FAIL"],
  ENDED: [],
  CANCELLED: [],
  FAILED: [],
};

const ACTION_LABELS: Record<LiveAction, MessageKey> = {
  START: "webinars.liveStart",
  END: "webinars.liveEnd",
  CANCEL: "webinars.liveCancel",
  FAIL: "webinars.liveFail",
};

export function WebinarControls({ webinar }: { webinar: Webinar }) {
  const { formatMessage } = useIntl();
  const queryClient = useQueryClient();
  const path = { params: { path: { ticketCode: webinar.ticketCode } } };
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: consoleApi.queryOptions("get", "/console/api/webinars").queryKey }),
      queryClient.invalidateQueries({
        queryKey: consoleApi.queryOptions("get", "/console/api/webinars/{ticketCode}", path).queryKey,
      }),
    ]);
  const setStatus = consoleApi.useMutation("post", "/console/api/webinars/{ticketCode}/status", { onSuccess: refresh });
  const runLive = consoleApi.useMutation("post", "/console/api/webinars/{ticketCode}/live", {
    onSuccess: () => {
      setConfirming(null);
      return refresh();
    },
  });
  const finalize = consoleApi.useMutation("post", "/console/api/webinars/{ticketCode}/finalize", {
    onSuccess: refresh,
  });
  const [confirming, setConfirming] = useState<LiveAction | null>(null);
  const failed = [setStatus, runLive, finalize].find((mutation) => mutation.isError);
  const canFinalize = ["ENDED", "CANCELLED", "FAILED"].includes(webinar.liveStatus) && webinar.finalizedAt === null;

  return (
    <div className="controls">
      <fieldset className="actions">
        <legend className="visually-hidden">{formatMessage({ id: "webinars.visibility" })}</legend>
        {webinar.status === "PUBLISHED" ? (
          <button
            type="button"
            className="secondary"
            onClick={() => setStatus.mutate({ ...path, body: { status: "HIDDEN" } })}
          >
            {formatMessage({ id: "webinars.hide" })}
          </button>
        ) : webinar.status === "SUSPENDED" ? null : (
          <button type="button" onClick={() => setStatus.mutate({ ...path, body: { status: "PUBLISHED" } })}>
            {formatMessage({ id: "webinars.publish" })}
          </button>
        )}
      </fieldset>
      <fieldset className="actions">
        <legend className="visually-hidden">{formatMessage({ id: "webinars.live" })}</legend>
        {LIVE_ACTIONS[webinar.liveStatus].map((action) => (
          <button
            key={action}
            type="button"
            className={action === "START" ? "" : "danger"}
            onClick={() => (action === "START" ? runLive.mutate({ ...path, body: { action } }) : setConfirming(action))}
          >
            {formatMessage({ id: ACTION_LABELS[action] })}
          </button>
        ))}
        {canFinalize ? (
          <button type="button" className="secondary" onClick={() => finalize.mutate({ ...path, body: {} })}>
            {formatMessage({ id: "webinars.finalize" })}
          </button>
        ) : null}
      </fieldset>
      {failed === undefined ? null : <ErrorMessage error={failed.error} />}
      <VideoUrlsForm webinar={webinar} onSaved={refresh} />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === null ? "" : formatMessage({ id: ACTION_LABELS[confirming] })}
        confirmLabel={confirming === null ? "" : formatMessage({ id: ACTION_LABELS[confirming] })}
        busy={runLive.isPending}
        onConfirm={() => confirming !== null && runLive.mutate({ ...path, body: { action: confirming } })}
        onCancel={() => setConfirming(null)}
      >
        <p>{formatMessage({ id: "webinars.liveConfirm" }, { title: webinar.title ?? webinar.ticketCode })}</p>
      </ConfirmDialog>
    </div>
  );
}

function VideoUrlsForm({ webinar, onSaved }: { webinar: Webinar; onSaved(): Promise<unknown> }) {
  const { formatMessage } = useIntl();
  const id = useId();
  const [live, setLive] = useState(webinar.liveVideoUrl ?? "");
  const [replay, setReplay] = useState(webinar.replayVideoUrl ?? "");
  const save = consoleApi.useMutation("post", "/console/api/webinars/{ticketCode}/videos", { onSuccess: onSaved });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An emptied field clears the URL (null); setWebinarVideos keeps a field that is left out.
    const value = (text: string) => (text.trim() === "" ? null : text.trim());
    save.mutate({
      params: { path: { ticketCode: webinar.ticketCode } },
      body: { liveVideoUrl: value(live), replayVideoUrl: value(replay) },
    });
  };
  return (
    <form className="filters" onSubmit={submit} aria-label={formatMessage({ id: "webinars.videos" })}>
      <div>
        <label htmlFor={`${id}-live`}>{formatMessage({ id: "webinars.liveVideoUrl" })}</label>
        <input id={`${id}-live`} type="url" value={live} onChange={(e) => setLive(e.target.value)} />
      </div>
      <div>
        <label htmlFor={`${id}-replay`}>{formatMessage({ id: "webinars.replayVideoUrl" })}</label>
        <input id={`${id}-replay`} type="url" value={replay} onChange={(e) => setReplay(e.target.value)} />
      </div>
      <div className="actions">
        <button type="submit" className="secondary" disabled={save.isPending}>
          {formatMessage({ id: "webinars.saveVideos" })}
        </button>
        <span role="status">{save.isSuccess ? formatMessage({ id: "webinars.videosSaved" }) : ""}</span>
      </div>
      {save.isError ? <ErrorMessage error={save.error} /> : null}
    </form>
  );
}
