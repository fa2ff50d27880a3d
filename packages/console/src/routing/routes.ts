/**
 * The console's pages and their addresses under the app's base (`/console/`). A route is parsed from
 * `location.pathname` and written back with `routeHref`, so a deep link such as `/console/webinars/{ticketCode}`
 * opens the same page on a fresh load as when it is reached by a click.
 */

/** Where Vite's `base` puts the app; every address of the console starts with it. */
export const BASE_PATH = import.meta.env.BASE_URL.replace(/\/$/, "");

export type Route =
  | { page: "invite" }
  | { page: "signIn"; next?: string }
  | { page: "apiKeys" }
  | { page: "requests" }
  | { page: "webinars" }
  | { page: "watchData"; ticketCode: string }
  | { page: "notFound" };

/** The page of an address (path relative to the origin, with the base) and its query string. */
export function parseRoute(pathname: string, search: string): Route {
  const path = pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) : pathname;
  const parts = path.split("/").filter((part) => part !== "");
  const [first, second] = parts;
  if (parts.length === 0) return { page: "webinars" };
  if (parts.length === 1 && first === "invite") return { page: "invite" };
  if (parts.length === 1 && first === "sign-in") {
    const next = new URLSearchParams(search).get("next");
    return next !== null && isInternalPath(next) ? { page: "signIn", next } : { page: "signIn" };
  }
  if (parts.length === 1 && first === "api-keys") return { page: "apiKeys" };
  if (parts.length === 1 && first === "requests") return { page: "requests" };
  if (parts.length === 1 && first === "webinars") return { page: "webinars" };
  if (parts.length === 2 && first === "webinars" && second !== undefined)
    return { page: "watchData", ticketCode: decodeURIComponent(second) };
  return { page: "notFound" };
}

/** Only an address inside the console may be a sign-in's `next`, so a link cannot send a person elsewhere. */
function isInternalPath(path: string): boolean {
  return path.startsWith(`${BASE_PATH}/`) && !path.startsWith("//") && !path.includes("\\");
}

/** The address of a route. */
export function routeHref(route: Route): string {
  switch (route.page) {
    case "invite":
      return `${BASE_PATH}/invite`;
    case "signIn":
      return `${BASE_PATH}/sign-in${route.next === undefined ? "" : `?next=${encodeURIComponent(route.next)}`}`;
    case "apiKeys":
      return `${BASE_PATH}/api-keys`;
    case "requests":
      return `${BASE_PATH}/requests`;
    case "webinars":
      return `${BASE_PATH}/webinars`;
    case "watchData":
      return `${BASE_PATH}/webinars/${encodeURIComponent(route.ticketCode)}`;
    case "notFound":
      return `${BASE_PATH}/`;
  }
}
