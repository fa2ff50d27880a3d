/**
 * Accepting an invite: the link's fragment `#token=...` names the invite (a fragment never reaches a server log
 * or a Referer). The token is read once and removed from the address bar, then the person chooses a password.
 */
import { type FormEvent, useState } from "react";
import { consoleApi } from "../api/console-api";
import { consoleLimits } from "../api/console-schema.gen";
import { useResetSession } from "../api/session";
import { ErrorMessage } from "../components/error-message";
import { usePageTitle } from "../components/use-page-title";
import { useI18n } from "../i18n/i18n";
import { useRouter } from "../routing/router";

/** The password rule of acceptInvite, checked here first so the person learns it before sending. */
const MIN_PASSWORD_LENGTH = consoleLimits.passwordMinLength;

function takeTokenFromAddress(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
  if (window.location.hash !== "")
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return token;
}

export function InvitePage() {
  const { t } = useI18n();
  const { navigate } = useRouter();
  const resetSession = useResetSession();
  const [token] = useState(takeTokenFromAddress);
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const accept = consoleApi.useMutation("post", "/console/api/session/invite");
  usePageTitle(t("invite.title"));

  if (token === null || token === "")
    return (
      <section className="narrow">
        <h1>{t("invite.title")}</h1>
        <p role="alert" className="error">
          {t("invite.noToken")}
        </p>
      </section>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ([...password].length < MIN_PASSWORD_LENGTH)
      return setProblem(t("invite.tooShort", { count: MIN_PASSWORD_LENGTH }));
    if (password !== repeat) return setProblem(t("invite.mismatch"));
    setProblem(null);
    accept.mutate(
      { body: { token, password } },
      {
        onSuccess: async () => {
          await resetSession();
          navigate({ page: "webinars" }, { replace: true });
        },
      },
    );
  };

  return (
    <section className="narrow">
      <h1>{t("invite.title")}</h1>
      <p>{t("invite.intro", { count: MIN_PASSWORD_LENGTH })}</p>
      <form onSubmit={submit} className="stack">
        <label>
          {t("invite.password")}
          <input
            type="password"
            autoComplete="new-password"
            required
            aria-describedby="password-rule"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <p id="password-rule" className="hint">
          {t("invite.rule", { count: MIN_PASSWORD_LENGTH })}
        </p>
        <label>
          {t("invite.repeat")}
          <input
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        </label>
        {problem === null ? null : (
          <p role="alert" className="error">
            {problem}
          </p>
        )}
        {accept.isError ? <ErrorMessage error={accept.error} /> : null}
        <button type="submit" disabled={accept.isPending}>
          {t("invite.submit")}
        </button>
      </form>
    </section>
  );
}
