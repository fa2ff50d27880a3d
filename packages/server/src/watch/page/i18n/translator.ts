/**
 * Messages in the page's language through FormatJS's `intl-messageformat` (ICU MessageFormat with the language's
 * plural rules), each message compiled once.
 */
import { IntlMessageFormat } from "intl-messageformat";
import type { MessageKey } from "./catalogue";
import { type Language, LANGUAGES } from "./languages";

export type Values = Record<string, string | number>;
export type Translate = (key: MessageKey, values?: Values) => string;

export function createTranslator(language: Language): Translate {
  const catalogue = LANGUAGES[language];
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  return (key, values) => {
    let format = compiled.get(key);
    if (format === undefined) {
      format = new IntlMessageFormat(catalogue[key], language);
      compiled.set(key, format);
    }
    return String(format.format(values)).trim();
  };
}
