/**
 * The `redirect` mode that keeps a signed request from following a redirect (a redirected request no longer
 * matches its signature): `"error"` wherever the runtime accepts it, `"manual"` on Cloudflare Workers, whose
 * `Request` refuses `"error"`. Under `"manual"` a 3xx comes back as the answer, unfollowed.
 */
// Module-level: what the runtime accepts never changes within a process, so it is probed once.
let mode: RequestRedirect | undefined;

export function noFollowRedirect(): RequestRedirect {
  if (mode === undefined) {
    try {
      new Request("http://redirect.invalid/", { redirect: "error" });
      mode = "error";
    } catch {
      mode = "manual";
    }
  }
  return mode;
}
