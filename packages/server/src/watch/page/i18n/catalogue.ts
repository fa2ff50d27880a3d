/**
 * The shape every language's catalogue has: the English one (en.ts) names the keys, and any other catalogue typed
 * `Catalogue` fails the build when it lacks a key or has one English does not.
 */
import type { en } from "./en";

export type MessageKey = keyof typeof en;
export type Catalogue = { readonly [key in MessageKey]: string };
