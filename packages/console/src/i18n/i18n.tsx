/**
 * The chosen language and `t`, the translation function, for every component. The choice starts from the
 * person's saved language (the console API's `getMe`), else what they picked in this browser, else the
 * browser's languages; the `<html lang>` follows it so screen readers pronounce the page right.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { MessageKey } from "./catalogue";
import { isLanguage, LANGUAGES, type Language, languageOfBrowser } from "./languages";

const STORAGE_KEY = "webinar-console-language";

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

interface I18nValue {
  language: Language;
  setLanguage(language: Language): void;
  t: Translate;
  /** Formats numbers and dates in the chosen language. */
  formatNumber(value: number): string;
  /** Date and time to the minute (the API keys page) or to the second. */
  formatDateTime(iso: string, precision?: "minute" | "second"): string;
}

const I18nContext = createContext<I18nValue | null>(null);

function initialLanguage(): Language {
  const saved = window.localStorage.getItem(STORAGE_KEY);
  return isLanguage(saved) ? saved : languageOfBrowser(window.navigator.languages);
}

function fill(text: string, values: Record<string, string | number> | undefined): string {
  if (values === undefined) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
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
  const value = useMemo<I18nValue>(() => {
    const catalogue = LANGUAGES[language].catalogue;
    const numbers = new Intl.NumberFormat(language);
    const minutes = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
    const seconds = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "medium" });
    return {
      language,
      setLanguage,
      t: (key, values) => fill(catalogue[key], values),
      formatNumber: (number) => numbers.format(number),
      formatDateTime: (iso, precision = "second") => (precision === "minute" ? minutes : seconds).format(new Date(iso)),
    };
  }, [language, setLanguage]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (value === null) throw new Error("useI18n needs an I18nProvider");
  return value;
}
