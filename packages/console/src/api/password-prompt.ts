/**
 * The question "enter your password again", asked by code outside React (the retry middleware) and answered by the
 * password dialog the signed-in frame shows. Calls that need a recent password at the same moment share one question.
 */
import { useSyncExternalStore } from "react";

let settleAsked: ((confirmed: boolean) => void) | null = null;
let asked: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

/** Resolves true once the person has confirmed their password, false when they cancel. */
export function askForPassword(): Promise<boolean> {
  if (asked === null) {
    asked = new Promise<boolean>((resolve) => {
      settleAsked = resolve;
    });
    changed();
  }
  return asked;
}

/** The dialog's answer: the password was confirmed (the calls waiting are repeated) or the person cancelled. */
export function answerPasswordQuestion(confirmed: boolean): void {
  const settle = settleAsked;
  asked = null;
  settleAsked = null;
  changed();
  settle?.(confirmed);
}

/** Whether the question is open now, for the dialog. */
export function usePasswordQuestion(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => asked !== null,
  );
}
