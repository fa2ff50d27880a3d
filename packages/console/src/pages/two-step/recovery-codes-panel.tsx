/**
 * Ten recovery codes, shown once right after they are made (enrollment, regenerateRecoveryCodes): each signs in once
 * in place of the app's code. Copy them or download them as a text file, then put them away.
 */
import { useEffect, useMemo } from "react";
import { useIntl } from "react-intl";
import { CopyButton } from "../../components/copy-button";

export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { formatMessage } = useIntl();
  const text = `${codes.join("\n")}\n`;
  const fileUrl = useMemo(() => URL.createObjectURL(new Blob([text], { type: "text/plain" })), [text]);
  useEffect(() => () => URL.revokeObjectURL(fileUrl), [fileUrl]);
  return (
    <section className="panel notice" aria-labelledby="recovery-title">
      <h2 id="recovery-title">{formatMessage({ id: "twoStep.recoveryTitle" })}</h2>
      <p>{formatMessage({ id: "twoStep.recoveryOnce" }, { count: codes.length })}</p>
      <ul className="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton text={text} label={formatMessage({ id: "twoStep.copyCodes" })} />
        <a className="button secondary" href={fileUrl} download="recovery-codes.txt">
          {formatMessage({ id: "twoStep.downloadCodes" })}
        </a>
        <button type="button" onClick={onDone}>
          {formatMessage({ id: "twoStep.savedCodes" })}
        </button>
      </div>
    </section>
  );
}
