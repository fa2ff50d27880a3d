/**
 * The signed-in person's sessions (listSessions): the device, the address of its latest request, when it signed in
 * and was last used, this one marked; any of them ends at once (endSession). Ending this one signs out here.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useIntl } from "react-intl";
import { consoleApi, type Schemas } from "../api/console-api";
import { useResetSession } from "../api/session";
import { type Column, DataTable } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { usePageTitle } from "../components/use-page-title";

type SessionInfo = Schemas["SessionInfo"];

export function SessionsPage() {
  const { formatMessage, formatDate } = useIntl();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const resetSession = useResetSession();
  const sessions = consoleApi.useQuery("get", "/console/api/me/sessions");
  const end = consoleApi.useMutation("post", "/console/api/me/sessions/{sessionId}/end", {
    onSuccess: async (answer) => {
      if (answer.signedOut) {
        await resetSession();
        await navigate({ to: "/sign-in", replace: true });
      } else
        await queryClient.invalidateQueries({
          queryKey: consoleApi.queryOptions("get", "/console/api/me/sessions").queryKey,
        });
    },
  });
  usePageTitle(formatMessage({ id: "sessions.title" }));
  const columns: Column<SessionInfo>[] = [
    {
      header: "sessions.device",
      cell: (session) => (
        <>
          {session.device}
          {session.current ? (
            <span className="badge ok current-session">{formatMessage({ id: "sessions.current" })}</span>
          ) : null}
        </>
      ),
    },
    { header: "sessions.address", cell: (session) => <code>{session.address}</code> },
    { header: "sessions.signedInAt", cell: (session) => formatDate(session.signedInAt, { format: "minute" }) },
    { header: "sessions.lastSeenAt", cell: (session) => formatDate(session.lastSeenAt, { format: "minute" }) },
    {
      header: "common.actions",
      cell: (session) => (
        <button
          type="button"
          className="secondary"
          disabled={end.isPending}
          onClick={() => end.mutate({ params: { path: { sessionId: session.sessionId } }, body: {} })}
          aria-label={formatMessage(
            { id: session.current ? "sessions.endCurrentLabel" : "sessions.endLabel" },
            { device: session.device, at: new Date(session.lastSeenAt) },
          )}
        >
          {formatMessage({ id: session.current ? "sessions.endCurrent" : "sessions.end" })}
        </button>
      ),
    },
  ];
  return (
    <>
      <h1>{formatMessage({ id: "sessions.title" })}</h1>
      <p className="lead">{formatMessage({ id: "sessions.intro" })}</p>
      {sessions.isError ? <ErrorMessage error={sessions.error} /> : null}
      {end.isError ? <ErrorMessage error={end.error} /> : null}
      {sessions.data === undefined ? null : (
        <DataTable
          rows={sessions.data.items}
          rowKey={(session) => session.sessionId}
          rowData={(session) => ({ "data-session-id": session.sessionId, "data-current": String(session.current) })}
          caption="sessions.caption"
          columns={columns}
        />
      )}
    </>
  );
}
