/** Rolling a key: a new key now, and the old one revoked after a grace period the person picks. */
import { useId, useState } from "react";
import { consoleLimits } from "@org/webinar-console-contract";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { useIntl } from "react-intl";

const HOUR = 3600;
/** Grace periods offered, within what rollApiKey accepts (0 revokes the old key at once). */
const GRACE_CHOICES = [0, HOUR, 24 * HOUR, 3 * 24 * HOUR, 7 * 24 * HOUR].filter(
  (seconds) => seconds <= consoleLimits.rollGraceMaxSeconds,
);

export function RollDialog({
  apiKey,
  busy,
  onRoll,
  onCancel,
}: {
  apiKey: string | null;
  busy: boolean;
  onRoll(graceSeconds: number): void;
  onCancel(): void;
}) {
  const { formatMessage } = useIntl();
  const [grace, setGrace] = useState(24 * HOUR);
  const id = useId();
  const label = (seconds: number) =>
    seconds === 0
      ? formatMessage({ id: "keys.graceNone" })
      : seconds < 24 * HOUR
        ? formatMessage({ id: "keys.graceHours" }, { count: seconds / HOUR })
        : formatMessage({ id: "keys.graceDays" }, { count: seconds / (24 * HOUR) });
  return (
    <ConfirmDialog
      open={apiKey !== null}
      title={formatMessage({ id: "keys.rollTitle" }, { apiKey: apiKey ?? "" })}
      confirmLabel={formatMessage({ id: "keys.roll" })}
      onConfirm={() => onRoll(grace)}
      onCancel={onCancel}
      busy={busy}
    >
      <p>{formatMessage({ id: "keys.rollExplain" })}</p>
      <label htmlFor={id}>{formatMessage({ id: "keys.grace" })}</label>
      <select id={id} value={grace} onChange={(event) => setGrace(Number(event.target.value))}>
        {GRACE_CHOICES.map((seconds) => (
          <option key={seconds} value={seconds}>
            {label(seconds)}
          </option>
        ))}
      </select>
    </ConfirmDialog>
  );
}
