/**
 * The frame of every signed-in page: a skip link, the merchant and the person, the navigation, the language and
 * signing out (here or on every device), and the password dialog a change that needs a recent password opens. Moving to another page moves focus to its main region, so a screen
 * reader starts reading the new page.
 */
import { Link, useLocation, useNavigate } from "@tanstack/react-router";
import { type ReactNode, useEffect, useRef } from "react";
import { useIntl } from "react-intl";
import { consoleApi } from "../api/console-api";
import { type Me, useResetSession } from "../api/session";
import type { MessageKey } from "../i18n/catalogue";
import { LanguageSwitcher } from "./language-switcher";
import { PasswordDialog } from "./password-dialog";

// A link is marked current (aria-current) on its page and the pages under it: Webinars on a webinar's watch data.
const NAVIGATION = [
  { to: "/webinars", label: "nav.webinars" },
  { to: "/api-keys", label: "nav.apiKeys" },
  { to: "/requests", label: "nav.requests" },
  { to: "/people", label: "nav.people" },
  { to: "/two-step-sign-in", label: "nav.twoStep" },
  { to: "/sessions", label: "nav.sessions" },
] as const satisfies { to: string; label: MessageKey }[];

export function Shell({ me, children }: { me: Me; children: ReactNode }) {
  const { formatMessage } = useIntl();
  const navigate = useNavigate();
  // Another page, not another search of the same page (a filter, the next page of a table).
  const pathname = useLocation({ select: (location) => location.pathname });
  const resetSession = useResetSession();
  const main = useRef<HTMLElement>(null);
  const signOut = consoleApi.useMutation("post", "/console/api/session/sign-out");
  const signOutEverywhere = consoleApi.useMutation("post", "/console/api/session/sign-out-everywhere");
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves whenever the page changes
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [pathname]);

  const leave = async () => {
    await resetSession();
    await navigate({ to: "/sign-in", replace: true });
  };

  return (
    <>
      <a className="skip-link" href="#main">
        {formatMessage({ id: "shell.skip" })}
      </a>
      <header className="top">
        <div className="brand">
          <span className="product">{formatMessage({ id: "app.name" })}</span>
          <span className="merchant">{me.merchant.name}</span>
        </div>
        <nav aria-label={formatMessage({ id: "nav.label" })}>
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.to}>
                <Link to={item.to}>{formatMessage({ id: item.label })}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          <LanguageSwitcher signedIn />
          <span className="person">
            {me.email} ·{" "}
            {me.role === "OWNER" ? formatMessage({ id: "role.OWNER" }) : formatMessage({ id: "role.ANALYST" })}
          </span>
          <button
            type="button"
            className="secondary"
            onClick={() => signOut.mutate({ body: {} }, { onSettled: leave })}
          >
            {formatMessage({ id: "shell.signOut" })}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => signOutEverywhere.mutate({ body: {} }, { onSettled: leave })}
          >
            {formatMessage({ id: "shell.signOutEverywhere" })}
          </button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {children}
      </main>
      <PasswordDialog />
    </>
  );
}

/** The frame of the pages before signing in: the language choice and the page. */
export function PublicShell({ children }: { children: ReactNode }) {
  const { formatMessage } = useIntl();
  return (
    <>
      <header className="top">
        <div className="brand">
          <span className="product">{formatMessage({ id: "app.name" })}</span>
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
