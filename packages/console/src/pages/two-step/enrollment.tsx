/**
 * Turning two-step sign-in on: startTwoFactorEnrollment makes a secret, shown as the QR code the server drew of its
 * `otpauth://` URL and as text to type; confirmTwoFactorEnrollment checks one code of the app and answers the
 * recovery codes. A wrong code leaves the enrollment open for another try.
 */
import { type FormEvent, useState } from "react";
import { useIntl } from "react-intl";
import { consoleApi } from "../../api/console-api";
import { ErrorMessage } from "../../components/error-message";
import { TextField } from "../../components/text-field";

export function Enrollment({ onEnabled }: { onEnabled(recoveryCodes: string[]): void }) {
  const { formatMessage } = useIntl();
  const [code, setCode] = useState("");
  const start = consoleApi.useMutation("post", "/console/api/me/two-factor/enrollment");
  const confirm = consoleApi.useMutation("post", "/console/api/me/two-factor/enrollment/confirm", {
    onSuccess: (answer) => onEnabled(answer.recoveryCodes),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate({ body: { code: code.replace(/\s/g, "") } }, { onError: () => setCode("") });
  };

  if (start.data === undefined)
    return (
      <section className="panel" aria-labelledby="enroll-title">
        <h2 id="enroll-title">{formatMessage({ id: "twoStep.offTitle" })}</h2>
        <p>{formatMessage({ id: "twoStep.offExplain" })}</p>
        <button type="button" disabled={start.isPending} onClick={() => start.mutate({ body: {} })}>
          {formatMessage({ id: "twoStep.start" })}
        </button>
        {start.isError ? <ErrorMessage error={start.error} /> : null}
      </section>
    );

  return (
    <section className="panel notice" aria-labelledby="enroll-title">
      <h2 id="enroll-title">{formatMessage({ id: "twoStep.scanTitle" })}</h2>
      <ol className="steps">
        <li>
          <p>{formatMessage({ id: "twoStep.scan" })}</p>
          <img className="qr" src={start.data.qrCode} alt={formatMessage({ id: "twoStep.qrAlt" })} />
          <p>{formatMessage({ id: "twoStep.orType" })}</p>
          <p>
            <code data-testid="totp-secret" className="secret break-anywhere">
              {start.data.secret}
            </code>
          </p>
        </li>
        <li>
          <form onSubmit={submit} className="stack">
            <TextField
              label={formatMessage({ id: "twoStep.code" })}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              value={code}
              onValue={setCode}
            />
            {confirm.isError ? <ErrorMessage error={confirm.error} /> : null}
            <div className="actions">
              <button type="submit" disabled={confirm.isPending}>
                {formatMessage({ id: "twoStep.confirm" })}
              </button>
            </div>
          </form>
        </li>
      </ol>
    </section>
  );
}
