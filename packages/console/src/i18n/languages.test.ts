import { describe, expect, it } from "vitest";
import { en } from "./en";
import { languageOfBrowser, LANGUAGES } from "./languages";

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
    "%s has every key with the same placeholders as English",
    (_tag, { catalogue }) => {
      const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      for (const key of Object.keys(en) as (keyof typeof en)[]) {
        expect(catalogue[key], key).not.toBe("");
        expect(placeholders(catalogue[key]), key).toEqual(placeholders(en[key]));
      }
    },
  );
});
