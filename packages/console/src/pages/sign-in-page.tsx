/** Sign in with the email the invite was sent for and the password chosen when accepting it. */
import { type FormEvent, useState } from "react";
import { consoleApi } from "../api/console-api";
import { useResetSession } from "../api/session";
import { ErrorMessage } from "../components/error-message";
import { usePageTitle } from "../components/use-page-title";
import { useI18n } from "../i18n/i18n";
import { useRouter } from "../routing/router";
import { parseRoute } from "../routing/routes";

export function SignInPage({ next }: { next: string | undefined }) {
  const { t } = useI18n();
  const { navigate } = useRouter();
  const resetSession = useResetSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = consoleApi.useMutation("post", "/console/api/session");
  usePageTitle(t("signIn.title"));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      { body: { email: email.trim(), password } },
      {
        onSuccess: async () => {
          await resetSession();
          const address = next === undefined ? undefined : new URL(next, window.location.origin);
          const target =
            address === undefined ? { page: "webinars" as const } : parseRoute(address.pathname, address.search);
          navigate(target, { replace: true });
        },
      },
    );
  };

  return (
    <section className="narrow">
      <h1>{t("signIn.title")}</h1>
      <form onSubmit={submit} className="stack">
        <label>
          {t("signIn.email")}
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          {t("signIn.password")}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {signIn.isError ? <ErrorMessage error={signIn.error} /> : null}
        <button type="submit" disabled={signIn.isPending}>
          {t("signIn.submit")}
        </button>
      </form>
      <p className="hint">{t("signIn.forgotten")}</p>
    </section>
  );
}
