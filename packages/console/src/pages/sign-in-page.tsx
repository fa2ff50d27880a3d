/**
 * Sign in with the email the invite was sent for and the password chosen when accepting it. A person with two-step
 * sign-in is then asked for the code of their authenticator app, or one of their recovery codes (the server answers
 * CONSOLE_SECOND_FACTOR_REQUIRED to the right password without one), and the three are sent together. A person
 * whose merchant requires two-step sign-in and who has none is taken to turn it on first.
 */
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useIntl } from "react-intl";
import { consoleApi, errorCodeOf } from "../api/console-api";
import { useResetSession } from "../api/session";
import { ErrorMessage } from "../components/error-message";
import { ENROLLMENT_PATH } from "../components/signed-in";
import { TextField } from "../components/text-field";
import { usePageTitle } from "../components/use-page-title";

const signInRoute = getRouteApi("/public/sign-in");

export function SignInPage() {
  const { formatMessage } = useIntl();
  const navigate = useNavigate();
  // The page that sent the person here, if any (an address inside the console: see routes/return-address.ts).
  const { next } = signInRoute.useSearch();
  const resetSession = useResetSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [askCode, setAskCode] = useState(false);
  const codeField = useRef<HTMLInputElement>(null);
  const signIn = consoleApi.useMutation("post", "/console/api/session");
  usePageTitle(formatMessage({ id: "signIn.title" }));
  useEffect(() => {
    if (askCode) codeField.current?.focus();
  }, [askCode]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typedCode = code.trim();
    signIn.mutate(
      { body: { email: email.trim(), password, ...(askCode && typedCode !== "" ? { code: typedCode } : {}) } },
      {
        onSuccess: async (me) => {
          await resetSession();
          if (me.enrollmentRequired) await navigate({ to: ENROLLMENT_PATH, replace: true });
          else if (next === undefined) await navigate({ to: "/webinars", replace: true });
          else await navigate({ href: next, replace: true });
        },
        onError: (error) => {
          if (errorCodeOf(error) === "CONSOLE_SECOND_FACTOR_REQUIRED") setAskCode(true);
          // A code is used once: a failed attempt leaves the field empty for the next one.
          setCode("");
        },
      },
    );
  };
  const failure = signIn.isError ? errorCodeOf(signIn.error) : undefined;

  return (
    <section className="narrow">
      <h1>{formatMessage({ id: "signIn.title" })}</h1>
      <form onSubmit={submit} className="stack">
        <TextField
          label={formatMessage({ id: "signIn.email" })}
          type="email"
          autoComplete="username"
          value={email}
          onValue={setEmail}
        />
        <TextField
          label={formatMessage({ id: "signIn.password" })}
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
        />
        {askCode ? (
          <>
            <TextField
              label={formatMessage({ id: "signIn.code" })}
              inputRef={codeField}
              type="text"
              autoComplete="one-time-code"
              spellCheck={false}
              aria-describedby="code-hint"
              value={code}
              onValue={setCode}
            />
            <p id="code-hint" className="hint">
              {formatMessage({ id: "signIn.codeHint" })}
            </p>
          </>
        ) : null}
        {failure === "CONSOLE_SECOND_FACTOR_REQUIRED" ? null : askCode && failure === "CONSOLE_SIGN_IN_FAILED" ? (
          <p role="alert" className="error">
            {formatMessage({ id: "signIn.codeWrong" })}
          </p>
        ) : signIn.isError ? (
          <ErrorMessage error={signIn.error} />
        ) : null}
        <button type="submit" disabled={signIn.isPending}>
          {formatMessage({ id: "signIn.submit" })}
        </button>
      </form>
      <p className="hint">{formatMessage({ id: "signIn.forgotten" })}</p>
    </section>
  );
}
