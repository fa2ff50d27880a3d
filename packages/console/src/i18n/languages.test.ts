import {
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  isTimeElement,
  type MessageFormatElement,
  parse,
} from "@formatjs/icu-messageformat-parser";
import { createIntl } from "react-intl";
import { describe, expect, it } from "vitest";
import type { MessageKey } from "./catalogue";
import { en } from "./en";
import { type Language, LANGUAGES, languageOfBrowser } from "./languages";

/** The arguments a message takes (sorted), and the option names of each of its plurals. */
function argumentsOf(message: string): { names: string[]; plurals: string[][] } {
  const names = new Set<string>();
  const plurals: string[][] = [];
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (isTagElement(element)) throw new Error(`a tag <${element.value}>: catalogues are text only`);
      if (
        isArgumentElement(element) ||
        isNumberElement(element) ||
        isDateElement(element) ||
        isTimeElement(element) ||
        isPluralElement(element) ||
        isSelectElement(element)
      )
        names.add(element.value);
      if (isPluralElement(element)) plurals.push(Object.keys(element.options));
      if (isPluralElement(element) || isSelectElement(element))
        for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(parse(message));
  return { names: [...names].sort(), plurals };
}

describe("the console's languages", () => {
  it.each([
    [["zh-CN", "en"], "zh-CN"],
    [["zh-TW"], "zh-CN"],
    [["zh"], "zh-CN"],
    [["en-GB", "zh-CN"], "en"],
    [["fr-FR", "zh-Hans-CN"], "zh-CN"],
    [["fr-FR"], "en"],
    [[], "en"],
  ] as const)("browser languages %o choose %s", (preferred, language) => {
    expect(languageOfBrowser(preferred)).toBe(language);
  });

  it.each(Object.entries(LANGUAGES))(
    "%s: every message is ICU MessageFormat with English's arguments, and plurals use the language's own categories",
    (tag, { catalogue }) => {
      const categories = new Intl.PluralRules(tag).resolvedOptions().pluralCategories as string[];
      for (const key of Object.keys(en) as MessageKey[]) {
        expect(catalogue[key], key).not.toBe("");
        const { names, plurals } = argumentsOf(catalogue[key]);
        expect(names, key).toEqual(argumentsOf(en[key]).names);
        for (const options of plurals) {
          expect(options, key).toContain("other");
          for (const option of options) expect(categories.includes(option) || /^=\d+$/.test(option), key).toBe(true);
        }
      }
    },
  );

  // Plural rules (Intl.PluralRules through react-intl): English says "1 request" and "2 requests"; Chinese has
  // one form for every number.
  const format = (language: Language, key: MessageKey, values: Record<string, number>) =>
    createIntl({ locale: language, messages: LANGUAGES[language].catalogue }).formatMessage({ id: key }, values);
  it.each([
    ["en", "requests.count", { count: 0 }, "No request matches."],
    ["en", "requests.count", { count: 1 }, "1 request shown."],
    ["en", "requests.count", { count: 1200 }, "1,200 requests shown."],
    ["en", "keys.graceHours", { count: 1 }, "1 hour"],
    ["en", "keys.graceDays", { count: 3 }, "3 days"],
    ["en", "error.CONSOLE_SIGN_IN_THROTTLED", { minutes: 1 }, "Too many failed sign-ins. Try again in 1 minute."],
    ["zh-CN", "requests.count", { count: 1 }, "显示 1 条请求。"],
    ["zh-CN", "requests.count", { count: 2 }, "显示 2 条请求。"],
    ["zh-CN", "keys.graceDays", { count: 1 }, "1 天"],
  ] as const)("%s %s with %o reads %j", (language, key, values, text) => {
    expect(format(language, key, values)).toBe(text);
  });
});
