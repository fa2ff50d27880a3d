/**
 * Where the console lives and where sign-in returns to. A page asked for without a session sends the person to
 * `/console/sign-in?next=<that page's address>`; only an address inside the console is taken, so a link cannot send
 * a person elsewhere after they sign in.
 */
import * as v from "valibot";

/** Where Vite's `base` puts the app (`/console`); every address of the console starts with it. */
export const BASE_PATH = import.meta.env.BASE_URL.replace(/\/$/, "");

function isConsoleAddress(address: string): boolean {
  return address.startsWith(`${BASE_PATH}/`) && !address.startsWith("//") && !address.includes("\\");
}

export const signInSearch = v.fallback(
  v.object({ next: v.exactOptional(v.pipe(v.string(), v.check(isConsoleAddress))) }),
  {},
);
