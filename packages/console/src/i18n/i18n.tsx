/**
 * The chosen language, and react-intl's IntlProvider with that language's catalogue: every component formats its
 * words, numbers and dates with react-intl's `useIntl()`. The choice starts from what the person picked in this
 * browser, else the browser's languages; a signed-in person's saved language (getMe) replaces it once loaded. The
 * `<html lang>` follows it so screen readers pronounce the page right.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { IntlProvider } from "react-intl";
import { isLanguage, LANGUAGES, type Language, languageOfBrowser } from "./languages";

const STORAGE_KEY = "webinar-console-language";

/**
 * Named date formats: `formatDate(value, { format: "minute" })` in code, `{at, date, minute}` in a message. Minutes
 * for what people set (keys, finalized figures), seconds for what machines record.
 */
const FORMATS = {
  date: {
    minute: { dateStyle: "medium", timeStyle: "short" },
    second: { dateStyle: "medium", timeStyle: "medium" },
  },
} as const;

interface LanguageChoice {
  language: Language;
  setLanguage(language: Language): void;
}

const LanguageContext = createContext<LanguageChoice | null>(null);

function initialLanguage(): Language {
  const saved = window.localStorage.getItem(STORAGE_KEY);
  return isLanguage(saved) ? saved : languageOfBrowser(window.navigator.languages);
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const setLanguage = useCallback((next: Language) => {
    window.localStorage.setItem(STORAGE_KEY, next);
    setLanguageState(next);
  }, []);
  const choice = useMemo(() => ({ language, setLanguage }), [language, setLanguage]);
  return (
    <LanguageContext.Provider value={choice}>
      <IntlProvider locale={language} defaultLocale="en" messages={LANGUAGES[language].catalogue} formats={FORMATS}>
        {children}
      </IntlProvider>
    </LanguageContext.Provider>
  );
}

/** The chosen language and the way to change it (the language switcher, a person's saved language). */
export function useLanguage(): LanguageChoice {
  const value = useContext(LanguageContext);
  if (value === null) throw new Error("useLanguage needs an I18nProvider");
  return value;
}
