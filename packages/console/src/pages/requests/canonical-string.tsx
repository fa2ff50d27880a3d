/**
 * The canonical string the server computed for a request whose signature did not match, line by line with what
 * each line is, and how to compare it with the one the merchant's code signed. Shown as text only.
 */
import type { MessageKey } from "../../i18n/catalogue";
import { useIntl } from "react-intl";

// The six lines of the Open API's canonical string, in order (the signing guide).
const LINE_NAMES: MessageKey[] = [
  "canonical.lineApiKey",
  "canonical.lineMethod",
  "canonical.linePath",
  "canonical.lineTimestamp",
  "canonical.lineNonce",
  "canonical.lineBodyHash",
];

export function CanonicalString({ text }: { text: string }) {
  const { formatMessage } = useIntl();
  const lines = text.split("\n");
  return (
    <div className="canonical">
      <p>{formatMessage({ id: "canonical.explain" })}</p>
      <pre data-testid="canonical-string">{text}</pre>
      <table className="compact">
        <caption>{formatMessage({ id: "canonical.linesCaption" })}</caption>
        <thead>
          <tr>
            <th scope="col">{formatMessage({ id: "canonical.line" })}</th>
            <th scope="col">{formatMessage({ id: "canonical.meaning" })}</th>
            <th scope="col">{formatMessage({ id: "canonical.value" })}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed string, in their order
            <tr key={index}>
              <td>{index + 1}</td>
              <td>{formatMessage({ id: LINE_NAMES[index] ?? "canonical.lineExtra" })}</td>
              <td>
                <code>{line}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{formatMessage({ id: "canonical.howToCompare" })}</p>
      <ul>
        <li>{formatMessage({ id: "canonical.causeBody" })}</li>
        <li>{formatMessage({ id: "canonical.causePath" })}</li>
        <li>{formatMessage({ id: "canonical.causeTimestamp" })}</li>
        <li>{formatMessage({ id: "canonical.causeSecret" })}</li>
      </ul>
    </div>
  );
}
