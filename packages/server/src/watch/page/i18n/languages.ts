/**
 * The watch page's languages and how a browser's preference picks one: the first preferred language the page has,
 * any Chinese one (`zh`, `zh-CN`, `zh-Hans-…`, `zh-TW`) reading Simplified Chinese; English otherwise. The page
 * picks by `navigator.languages`; the server renders the page's first texts by `Accept-Language` the same way.
 * No formatting here, so the server can read the catalogues without the formatter.
 */
import type { Catalogue } from "./catalogue";
import { en } from "./en";
import { zhCN } from "./zh-CN";

export const LANGUAGES = { en: en as Catalogue, "zh-CN": zhCN } as const;

export type Language = keyof typeof LANGUAGES;

/** The page's language for the browser's languages, most preferred first. */
export function languageOf(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split("-")[0];
    if (primary === "zh") return "zh-CN";
    if (primary === "en") return "en";
  }
  return "en";
}

/** The languages of an `Accept-Language` header, most preferred first (weights `q=0` dropped). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(",")
    .map((part, order) => {
      const [tag = "", ...parameters] = part.split(";").map((piece) => piece.trim());
      const weight = parameters.find((parameter) => parameter.startsWith("q="));
      return { tag, order, quality: weight === undefined ? 1 : Number(weight.slice(2)) };
    })
    .filter(({ tag, quality }) => tag !== "" && tag !== "*" && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order)
    .map(({ tag }) => tag);
}
