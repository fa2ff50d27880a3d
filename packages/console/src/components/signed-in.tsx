/**
 * The frame of every page that needs a session (getMe): without one the person is sent to sign in, with the
 * address they asked for as the way back; with one, the page shows in the shell, in the person's saved language.
 * getMe is asked again every few seconds and on focus (api/session.ts), so a person removed or signed out elsewhere
 * leaves the page for sign-in without a reload, a suspended merchant's page says so, and a person whose merchant
 * requires two-step sign-in is taken to turn it on first.
 */
import { useLocation, useNavigate } from "@tanstack/react-router";
import { type ReactNode, useEffect } from "react";
import { useIntl } from "react-intl";
import { errorCodeOf } from "../api/console-api";
import { useMe } from "../api/session";
import { useLanguage } from "../i18n/i18n";
import { ErrorMessage } from "./error-message";
import { PublicShell, Shell } from "./shell";
import { SuspendedNotice } from "./suspended-notice";

/** The page a person without two-step sign-in is held on while their merchant requires it. */
export const ENROLLMENT_PATH = "/two-step-sign-in";

export function SignedIn({ children }: { children: ReactNode }) {
  const { formatMessage } = useIntl();
  const { language, setLanguage } = useLanguage();
  const navigate = useNavigate();
  const pathname = useLocation({ select: (location) => location.pathname });
  const me = useMe();
  const code = me.isError ? errorCodeOf(me.error) : undefined;
  const unauthorized = code === "CONSOLE_UNAUTHORIZED";
  useEffect(() => {
    if (unauthorized)
      void navigate({
        to: "/sign-in",
        search: { next: window.location.pathname + window.location.search },
        replace: true,
      });
  }, [unauthorized, navigate]);
  const mustEnroll = me.data?.enrollmentRequired === true && !unauthorized && code !== "TENANT_SUSPENDED";
  useEffect(() => {
    if (mustEnroll && !pathname.endsWith(ENROLLMENT_PATH)) void navigate({ to: ENROLLMENT_PATH, replace: true });
  }, [mustEnroll, pathname, navigate]);
  const saved = me.data?.language;
  // Only a newly loaded saved language applies; the switcher changes the language afterwards.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the saved language changes, not the shown one
  useEffect(() => {
    if (saved !== undefined && saved !== null && saved !== language) setLanguage(saved);
  }, [saved]);

  if (code === "TENANT_SUSPENDED") return <SuspendedNotice />;
  // A failed refresh (the network gone a moment) keeps the page the person is reading.
  if (me.data !== undefined && !unauthorized) return <Shell me={me.data}>{children}</Shell>;
  if (me.isError && !unauthorized)
    return (
      <PublicShell>
        <ErrorMessage error={me.error} />
      </PublicShell>
    );
  return (
    <PublicShell>
      <p role="status">{formatMessage({ id: "common.loading" })}</p>
    </PublicShell>
  );
}
