/**
 * What a person of a suspended merchant sees instead of any page: the console answers 403 TENANT_SUSPENDED to
 * everything but signing out, so the page says so, and offers only that. Nothing is lost: once the operator
 * reactivates the merchant, the same session works again (getMe is asked again every few seconds).
 */
import { useNavigate } from "@tanstack/react-router";
import { useIntl } from "react-intl";
import { consoleApi } from "../api/console-api";
import { useResetSession } from "../api/session";
import { PublicShell } from "./shell";
import { usePageTitle } from "./use-page-title";

export function SuspendedNotice() {
  const { formatMessage } = useIntl();
  const navigate = useNavigate();
  const resetSession = useResetSession();
  const signOut = consoleApi.useMutation("post", "/console/api/session/sign-out");
  usePageTitle(formatMessage({ id: "suspended.title" }));
  const leave = async () => {
    await resetSession();
    await navigate({ to: "/sign-in", replace: true });
  };
  return (
    <PublicShell>
      <section className="narrow">
        <h1>{formatMessage({ id: "suspended.title" })}</h1>
        <p role="alert" className="error">
          {formatMessage({ id: "error.TENANT_SUSPENDED" })}
        </p>
        <p>{formatMessage({ id: "suspended.explain" })}</p>
        <button type="button" className="secondary" onClick={() => signOut.mutate({ body: {} }, { onSettled: leave })}>
          {formatMessage({ id: "shell.signOut" })}
        </button>
      </section>
    </PublicShell>
  );
}
