/** The console's languages and how the browser's preference picks one. */
import type { Catalogue } from "./catalogue";
import { en } from "./en";
import { zhCN } from "./zh-CN";

export const LANGUAGES = {
  en: { label: "English", catalogue: en as Catalogue },
  "zh-CN": { label: "简体中文", catalogue: zhCN },
} as const;

export type Language = keyof typeof LANGUAGES;

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && Object.hasOwn(LANGUAGES, value);
}

/** The first of the browser's languages the console has: any Chinese picks Simplified Chinese, else English. */
export function languageOfBrowser(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower === "zh" || lower.startsWith("zh-")) return "zh-CN";
    if (lower === "en" || lower.startsWith("en-")) return "en";
  }
  return "en";
}
