/**
 * Which page to show: the invite and sign-in pages for anyone, every other page for a signed-in person only. A
 * page asked for without a session sends the person to sign in, and back to that page afterwards.
 */
import { lazy, Suspense, useEffect } from "react";
import { errorCodeOf } from "./api/console-api";
import { useMe } from "./api/session";
import { ErrorMessage } from "./components/error-message";
import { PublicShell, Shell } from "./components/shell";
import { useI18n } from "./i18n/i18n";
import { ApiKeysPage } from "./pages/api-keys/api-keys-page";
import { InvitePage } from "./pages/invite-page";
import { NotFoundPage } from "./pages/not-found-page";
import { RequestsPage } from "./pages/requests/requests-page";
import { SignInPage } from "./pages/sign-in-page";
import { WebinarsPage } from "./pages/webinars/webinars-page";
import { useRouter } from "./routing/router";
import type { Route } from "./routing/routes";

// The watch-data page draws charts: it and the chart library load only when it is opened.
const WatchDataPage = lazy(() => import("./pages/watch-data/watch-data-page"));

export function App() {
  const { route } = useRouter();
  if (route.page === "invite")
    return (
      <PublicShell>
        <InvitePage />
      </PublicShell>
    );
  if (route.page === "signIn")
    return (
      <PublicShell>
        <SignInPage next={route.next} />
      </PublicShell>
    );
  return <SignedInApp route={route} />;
}

function SignedInApp({ route }: { route: Route }) {
  const { t, language, setLanguage } = useI18n();
  const { navigate } = useRouter();
  const me = useMe();
  const unauthorized = me.isError && errorCodeOf(me.error) === "CONSOLE_UNAUTHORIZED";
  useEffect(() => {
    if (unauthorized)
      navigate({ page: "signIn", next: window.location.pathname + window.location.search }, { replace: true });
  }, [unauthorized, navigate]);
  const saved = me.data?.language;
  // Only a newly loaded saved language applies; the switcher changes the language afterwards.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the saved language changes, not the shown one
  useEffect(() => {
    if (saved !== undefined && saved !== null && saved !== language) setLanguage(saved);
  }, [saved]);

  if (me.isError && !unauthorized)
    return (
      <PublicShell>
        <ErrorMessage error={me.error} />
      </PublicShell>
    );
  if (me.data === undefined)
    return (
      <PublicShell>
        <p role="status">{t("common.loading")}</p>
      </PublicShell>
    );
  return (
    <Shell me={me.data}>
      <Page route={route} />
    </Shell>
  );
}

function Page({ route }: { route: Route }) {
  const { t } = useI18n();
  switch (route.page) {
    case "apiKeys":
      return <ApiKeysPage />;
    case "requests":
      return <RequestsPage />;
    case "webinars":
      return <WebinarsPage />;
    case "watchData":
      return (
        <Suspense fallback={<p role="status">{t("common.loading")}</p>}>
          <WatchDataPage ticketCode={route.ticketCode} />
        </Suspense>
      );
    default:
      return <NotFoundPage />;
  }
}
