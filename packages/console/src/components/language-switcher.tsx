/** Chooses the console's language; a signed-in person's choice is saved with setLanguage for their next visit. */
import { useId } from "react";
import { useIntl } from "react-intl";
import { consoleApi } from "../api/console-api";
import { useLanguage } from "../i18n/i18n";
import { isLanguage, LANGUAGES } from "../i18n/languages";

export function LanguageSwitcher({ signedIn }: { signedIn: boolean }) {
  const { formatMessage } = useIntl();
  const { language, setLanguage } = useLanguage();
  const save = consoleApi.useMutation("post", "/console/api/me/language");
  const id = useId();
  return (
    <span className="language">
      <label htmlFor={id}>{formatMessage({ id: "shell.language" })}</label>
      <select
        id={id}
        value={language}
        onChange={(event) => {
          const next = event.target.value;
          if (!isLanguage(next)) return;
          setLanguage(next);
          if (signedIn) save.mutate({ body: { language: next } });
        }}
      >
        {Object.entries(LANGUAGES).map(([tag, { label }]) => (
          <option key={tag} value={tag} lang={tag}>
            {label}
          </option>
        ))}
      </select>
    </span>
  );
}
