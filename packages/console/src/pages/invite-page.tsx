/**
 * Accepting an invite: the link's fragment `#token=...` names the invite (a fragment never reaches a server log
 * or a Referer). The token is read once and removed from the address bar, then the person chooses a password.
 */
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { useIntl } from "react-intl";
import { consoleApi } from "../api/console-api";
import { consoleLimits } from "@org/webinar-console-contract";
import { useResetSession } from "../api/session";
import { ErrorMessage } from "../components/error-message";
import { TextField } from "../components/text-field";
import { usePageTitle } from "../components/use-page-title";

/** The password rule of acceptInvite, checked here first so the person learns it before sending. */
const MIN_PASSWORD_LENGTH = consoleLimits.passwordMinLength;

function tokenInAddress(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get("token");
}

export function InvitePage() {
  const { formatMessage } = useIntl();
  const navigate = useNavigate();
  const resetSession = useResetSession();
  const [token] = useState(tokenInAddress);
  // Read once, then out of the address bar (and so out of the history, bookmarks and screen shares).
  useEffect(() => {
    if (window.location.hash !== "") void navigate({ to: "/invite", replace: true });
  }, [navigate]);
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const accept = consoleApi.useMutation("post", "/console/api/session/invite");
  usePageTitle(formatMessage({ id: "invite.title" }));

  if (token === null || token === "")
    return (
      <section className="narrow">
        <h1>{formatMessage({ id: "invite.title" })}</h1>
        <p role="alert" className="error">
          {formatMessage({ id: "invite.noToken" })}
        </p>
      </section>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ([...password].length < MIN_PASSWORD_LENGTH)
      return setProblem(formatMessage({ id: "invite.tooShort" }, { count: MIN_PASSWORD_LENGTH }));
    if (password !== repeat) return setProblem(formatMessage({ id: "invite.mismatch" }));
    setProblem(null);
    accept.mutate(
      { body: { token, password } },
      {
        onSuccess: async () => {
          await resetSession();
          await navigate({ to: "/webinars", replace: true });
        },
      },
    );
  };

  return (
    <section className="narrow">
      <h1>{formatMessage({ id: "invite.title" })}</h1>
      <p>{formatMessage({ id: "invite.intro" }, { count: MIN_PASSWORD_LENGTH })}</p>
      <form onSubmit={submit} className="stack">
        <TextField
          label={formatMessage({ id: "invite.password" })}
          type="password"
          autoComplete="new-password"
          aria-describedby="password-rule"
          value={password}
          onValue={setPassword}
        />
        <p id="password-rule" className="hint">
          {formatMessage({ id: "invite.rule" }, { count: MIN_PASSWORD_LENGTH })}
        </p>
        <TextField
          label={formatMessage({ id: "invite.repeat" })}
          type="password"
          autoComplete="new-password"
          value={repeat}
          onValue={setRepeat}
        />
        {problem === null ? null : (
          <p role="alert" className="error">
            {problem}
          </p>
        )}
        {accept.isError ? <ErrorMessage error={accept.error} /> : null}
        <button type="submit" disabled={accept.isPending}>
          {formatMessage({ id: "invite.submit" })}
        </button>
      </form>
    </section>
  );
}
