/**
 * The merchant's requirement of two-step sign-in (setTwoFactorRequirement), as a switch. The server refuses it to
 * an OWNER without two-step sign-in of their own (409 CONSOLE_TWO_FACTOR_NOT_ENABLED), which shows beside it.
 */
import { useIntl } from "react-intl";
import { consoleApi } from "../../api/console-api";
import { ErrorMessage } from "../../components/error-message";

export function TwoFactorRequirementSwitch({ required, onChanged }: { required: boolean; onChanged(): void }) {
  const { formatMessage } = useIntl();
  const set = consoleApi.useMutation("post", "/console/api/people/two-factor-requirement", { onSuccess: onChanged });
  return (
    <section className="panel" aria-labelledby="requirement-title">
      <h2 id="requirement-title">{formatMessage({ id: "people.requirementTitle" })}</h2>
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={required}
          checked={required}
          disabled={set.isPending}
          aria-describedby="requirement-hint"
          onChange={(e) => set.mutate({ body: { required: e.target.checked } })}
        />
        {formatMessage({ id: "people.requireTwoFactor" })}
      </label>
      <p id="requirement-hint" className="hint">
        {formatMessage({ id: "people.requirementHint" })}
      </p>
      {set.isError ? <ErrorMessage error={set.error} /> : null}
    </section>
  );
}
