/**
 * "Enter your password again": the modal the retry middleware (api/recent-password-retry.ts) opens when a change
 * needs a recent password. The password goes to confirmPassword; once it is right, the change waiting behind the
 * dialog is sent again. Cancelling leaves that change refused, and the page says why.
 */
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useIntl } from "react-intl";
import { consoleApi, errorCodeOf } from "../api/console-api";
import { answerPasswordQuestion, usePasswordQuestion } from "../api/password-prompt";
import { meQuery } from "../api/session";
import { ErrorMessage } from "./error-message";
import { TextField } from "./text-field";

export function PasswordDialog() {
  const { formatMessage } = useIntl();
  const open = usePasswordQuestion();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const confirm = consoleApi.useMutation("post", "/console/api/session/confirm-password");
  const reset = confirm.reset;
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open && !element.open) {
      setPassword("");
      reset();
      element.showModal();
    }
    if (!open && element.open) element.close();
  }, [open, reset]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(
      { body: { password } },
      {
        onSuccess: () => {
          setPassword("");
          void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
          answerPasswordQuestion(true);
        },
      },
    );
  };
  const wrongPassword = confirm.isError && errorCodeOf(confirm.error) === "CONSOLE_SIGN_IN_FAILED";

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      className="dialog"
      onCancel={(event) => {
        event.preventDefault();
        answerPasswordQuestion(false);
      }}
    >
      <h2 id={titleId}>{formatMessage({ id: "reauth.title" })}</h2>
      <p>{formatMessage({ id: "reauth.explain" })}</p>
      <form onSubmit={submit} className="stack">
        <TextField
          label={formatMessage({ id: "reauth.password" })}
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
        />
        {wrongPassword ? (
          <p role="alert" className="error">
            {formatMessage({ id: "reauth.wrong" })}
          </p>
        ) : confirm.isError ? (
          <ErrorMessage error={confirm.error} />
        ) : null}
        <div className="actions">
          <button type="submit" disabled={confirm.isPending}>
            {formatMessage({ id: "reauth.submit" })}
          </button>
          <button type="button" className="secondary" onClick={() => answerPasswordQuestion(false)}>
            {formatMessage({ id: "common.cancel" })}
          </button>
        </div>
      </form>
    </dialog>
  );
}
