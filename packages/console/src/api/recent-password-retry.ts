/**
 * Changes that hand out access (a new API key, a person's role, two-step sign-in) need a password entered within
 * the last minutes; later the console API answers 403 CONSOLE_REAUTHENTICATION_REQUIRED. This openapi-fetch
 * middleware keeps a copy of each unsafe request, and on that answer asks for the password (password-prompt.ts),
 * then sends the copy again, so the page that made the change sees only its result. When the person cancels, the
 * page gets the refusal as it came.
 */
import type { Middleware } from "openapi-fetch";
import { askForPassword } from "./password-prompt";

const REAUTHENTICATION_REQUIRED = "CONSOLE_REAUTHENTICATION_REQUIRED";

// A request's body is read when it is sent, so the copy to send again is made before.
const copies = new Map<string, Request>();

async function asksForPassword(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  const error = typeof body === "object" && body !== null && "error" in body ? body.error : null;
  return typeof error === "object" && error !== null && "code" in error && error.code === REAUTHENTICATION_REQUIRED;
}

export const recentPasswordRetry: Middleware = {
  onRequest({ request, id }) {
    if (request.method !== "GET" && request.method !== "HEAD") copies.set(id, request.clone());
    return undefined;
  },
  async onResponse({ response, id }) {
    const copy = copies.get(id);
    copies.delete(id);
    if (copy === undefined || !(await asksForPassword(response))) return undefined;
    if (!(await askForPassword())) return undefined;
    return fetch(copy);
  },
  onError({ id }) {
    copies.delete(id);
    return undefined;
  },
};
