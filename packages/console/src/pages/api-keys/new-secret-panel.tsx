/**
 * A key's secret, shown once right after it was made (createApiKey, rollApiKey): copy it, or download it as a
 * `.env` file the `webinar` CLI and the client read (WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET).
 */
import { useEffect, useMemo } from "react";
import { CopyButton } from "../../components/copy-button";
import { useIntl } from "react-intl";

export interface NewSecret {
  apiKey: string;
  secret: string;
  /** For a roll: the key that keeps working until then. */
  previous?: { apiKey: string; revokesAt: string };
}

function dotenv({ apiKey, secret }: NewSecret): string {
  return `WEBINAR_BASE_URL=${window.location.origin}\nWEBINAR_API_KEY=${apiKey}\nWEBINAR_API_SECRET=${secret}\n`;
}

export function NewSecretPanel({ created, onDone }: { created: NewSecret; onDone(): void }) {
  const { formatMessage } = useIntl();
  const fileUrl = useMemo(() => URL.createObjectURL(new Blob([dotenv(created)], { type: "text/plain" })), [created]);
  useEffect(() => () => URL.revokeObjectURL(fileUrl), [fileUrl]);
  return (
    <section className="panel notice" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title">{formatMessage({ id: "keys.newTitle" })}</h2>
      <p>{formatMessage({ id: "keys.newOnce" })}</p>
      <dl className="pairs">
        <dt>{formatMessage({ id: "keys.apiKey" })}</dt>
        <dd>
          <code data-testid="new-api-key">{created.apiKey}</code>
        </dd>
        <dt>{formatMessage({ id: "keys.secret" })}</dt>
        <dd>
          <code data-testid="new-secret" className="secret">
            {created.secret}
          </code>
        </dd>
      </dl>
      {created.previous === undefined ? null : (
        <p>
          {formatMessage(
            { id: "keys.rolledUntil" },
            {
              apiKey: created.previous.apiKey,
              at: new Date(created.previous.revokesAt),
            },
          )}
        </p>
      )}
      <div className="actions">
        <CopyButton text={created.secret} label={formatMessage({ id: "keys.copySecret" })} />
        <a className="button secondary" href={fileUrl} download={`${created.apiKey}.env`}>
          {formatMessage({ id: "keys.downloadEnv" })}
        </a>
        <button type="button" onClick={onDone}>
          {formatMessage({ id: "keys.savedIt" })}
        </button>
      </div>
    </section>
  );
}
