/**
 * The shape every language's message catalogue has: the English one (en.ts) names the keys, and any other
 * catalogue typed `Catalogue` fails the build when it lacks a key or has one English does not. The keys also type
 * react-intl's `formatMessage({ id })` (FormatJS's `FormatjsIntl` declarations), so an unknown id fails the build too.
 */
import type { en } from "./en";

export type MessageKey = keyof typeof en;
export type Catalogue = { readonly [key in MessageKey]: string };

declare global {
  namespace FormatjsIntl {
    interface Message {
      ids: MessageKey;
    }
  }
}
