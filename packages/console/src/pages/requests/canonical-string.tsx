/**
 * The canonical string the server computed for a request whose signature did not match, line by line with what
 * each line is, and how to compare it with the one the merchant's code signed. Shown as text only.
 */
import type { MessageKey } from "../../i18n/catalogue";
import { useI18n } from "../../i18n/i18n";

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
  const { t } = useI18n();
  const lines = text.split("\n");
  return (
    <div className="canonical">
      <p>{t("canonical.explain")}</p>
      <pre data-testid="canonical-string">{text}</pre>
      <table className="compact">
        <caption>{t("canonical.linesCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("canonical.line")}</th>
            <th scope="col">{t("canonical.meaning")}</th>
            <th scope="col">{t("canonical.value")}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed string, in their order
            <tr key={index}>
              <td>{index + 1}</td>
              <td>{t(LINE_NAMES[index] ?? "canonical.lineExtra")}</td>
              <td>
                <code>{line}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t("canonical.howToCompare")}</p>
      <ul>
        <li>{t("canonical.causeBody")}</li>
        <li>{t("canonical.causePath")}</li>
        <li>{t("canonical.causeTimestamp")}</li>
        <li>{t("canonical.causeSecret")}</li>
      </ul>
    </div>
  );
}
