/**
 * The watch page's languages: how the browser's (or the request's) languages pick one, that every catalogue has
 * every message with the same values as English, and that counts take each language's plural forms (ICU
 * MessageFormat through intl-messageformat).
 */
import { describe, expect, it } from "vitest";
import { en } from "./en";
import { acceptedLanguages, LANGUAGES, languageOf } from "./languages";
import { createTranslator } from "./translator";

describe("the watch page's languages", () => {
  it.each([
    [["zh-CN", "en"], "zh-CN"],
    [["zh-TW"], "zh-CN"],
    [["zh-Hans-CN"], "zh-CN"],
    [["en-GB", "zh-CN"], "en"],
    [["fr-FR", "zh-CN"], "zh-CN"],
    [["fr-FR"], "en"],
    [[], "en"],
  ] as const)("browser languages %o read %s", (preferred, language) => {
    expect(languageOf(preferred)).toBe(language);
  });

  it.each([
    ["zh-CN,zh;q=0.9,en;q=0.8", ["zh-CN", "zh", "en"]],
    ["en;q=0.5, zh-CN", ["zh-CN", "en"]],
    ["de, *;q=0.1", ["de"]],
    ["zh;q=0, en", ["en"]],
    [undefined, []],
  ] as const)("Accept-Language %s lists %o", (header, languages) => {
    expect(acceptedLanguages(header)).toEqual(languages);
  });

  it.each(Object.entries(LANGUAGES))("%s has every message, with the values English has", (_tag, catalogue) => {
    const values = (text: string) => [...text.matchAll(/\{(\w+)/g)].map((match) => match[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(catalogue[key], key).not.toBe("");
      expect(values(catalogue[key]), key).toEqual(values(en[key]));
    }
  });

  it.each([
    ["en", 0, "The stream stopped. Reconnecting…"],
    ["en", 1, "The stream stopped. Reconnecting… (tried 1 time)"],
    ["en", 3, "The stream stopped. Reconnecting… (tried 3 times)"],
    ["zh-CN", 0, "直播流中断，正在重新连接…"],
    ["zh-CN", 1, "直播流中断，正在重新连接… （已重试 1 次）"],
  ] as const)("%s: reconnecting after %i attempts reads %s", (language, attempts, text) => {
    expect(createTranslator(language)("player.reconnecting", { attempts })).toBe(text);
  });
});
