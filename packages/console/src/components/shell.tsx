/**
 * The frame of every signed-in page: a skip link, the merchant and the person, the navigation, the language and
 * signing out (here or on every device). Moving to another page moves focus to its main region, so a screen
 * reader starts reading the new page.
 */
import { type ReactNode, useEffect, useRef } from "react";
import { consoleApi } from "../api/console-api";
import { type Me, useResetSession } from "../api/session";
import { useI18n } from "../i18n/i18n";
import { Link, useRouter } from "../routing/router";
import type { Route } from "../routing/routes";
import { LanguageSwitcher } from "./language-switcher";

const NAVIGATION: { route: Route; label: "nav.webinars" | "nav.apiKeys" | "nav.requests" }[] = [
  { route: { page: "webinars" }, label: "nav.webinars" },
  { route: { page: "apiKeys" }, label: "nav.apiKeys" },
  { route: { page: "requests" }, label: "nav.requests" },
];

function isCurrent(current: Route, item: Route): boolean {
  return current.page === item.page || (current.page === "watchData" && item.page === "webinars");
}

export function Shell({ me, children }: { me: Me; children: ReactNode }) {
  const { t } = useI18n();
  const { route, navigate } = useRouter();
  const resetSession = useResetSession();
  const main = useRef<HTMLElement>(null);
  const signOut = consoleApi.useMutation("post", "/console/api/session/sign-out");
  const signOutEverywhere = consoleApi.useMutation("post", "/console/api/session/sign-out-everywhere");
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves whenever the route changes
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [route]);

  const leave = async () => {
    await resetSession();
    navigate({ page: "signIn" }, { replace: true });
  };

  return (
    <>
      <a className="skip-link" href="#main">
        {t("shell.skip")}
      </a>
      <header className="top">
        <div className="brand">
          <span className="product">{t("app.name")}</span>
          <span className="merchant">{me.merchant.name}</span>
        </div>
        <nav aria-label={t("nav.label")}>
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.route.page}>
                <Link to={item.route} {...(isCurrent(route, item.route) ? { current: true } : {})}>
                  {t(item.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          <LanguageSwitcher signedIn />
          <span className="person">
            {me.email} · {me.role === "OWNER" ? t("role.OWNER") : t("role.ANALYST")}
          </span>
          <button
            type="button"
            className="secondary"
            onClick={() => signOut.mutate({ body: {} }, { onSettled: leave })}
          >
            {t("shell.signOut")}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => signOutEverywhere.mutate({ body: {} }, { onSettled: leave })}
          >
            {t("shell.signOutEverywhere")}
          </button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** The frame of the pages before signing in: the language choice and the page. */
export function PublicShell({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  return (
    <>
      <header className="top">
        <div className="brand">
          <span className="product">{t("app.name")}</span>
        </div>
        <div className="account">
          <LanguageSwitcher signedIn={false} />
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
