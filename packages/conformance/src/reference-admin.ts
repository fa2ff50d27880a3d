/**
 * The setup hooks of the reference server (`@org/webinar-server`), over its admin API (admin-openapi.yaml) and its
 * watch page's ticket exchange (`POST /w/api/session`). The CLI builds them from `--admin-url` and
 * `--admin-token`; a server author can read this module as a worked example of {@link ConformanceSetup}.
 *
 * @example
 * ```ts
 * import { runConformance } from "@org/webinar-conformance";
 * import { referenceAdminSetup } from "@org/webinar-conformance/reference-admin";
 *
 * const setup = referenceAdminSetup({ adminUrl: "http://127.0.0.1:8080", adminToken: process.env.WEBINAR_ADMIN_TOKEN! });
 * const report = await runConformance({ baseUrl: "http://127.0.0.1:8080", apiKey, apiSecret, ticketCode, setup });
 * ```
 */
import type { Credentials } from "./credentials";
import type { ConformanceSetup, PlaybackSession } from "./setup-hooks";

export interface ReferenceAdminOptions {
  /** The server's base URL: the admin API is under `/admin/v1`, the ticket exchange at `/w/api/session`. */
  adminUrl: string;
  /** The server's `WEBINAR_ADMIN_TOKEN`. */
  adminToken: string;
  /** The server's `WEBINAR_TICKET_TTL_SECONDS`, when the expiry check should wait it out (60 by default on the server). */
  ticketLifetimeSeconds?: number;
  /** The `fetch` to use; default the global one. */
  fetch?: typeof fetch;
}

/** Sessions recorded at once: the admin API takes one per request. */
const RECORDING_WIDTH = 8;

/**
 * The reference server's setup hooks. Its blocked terms are one list for the whole server, which
 * `blockDisplayNameTerms` replaces: point it at a server meant for testing.
 */
export function referenceAdminSetup(options: ReferenceAdminOptions): ConformanceSetup {
  const base = new URL(options.adminUrl).origin;
  if (typeof options.adminToken !== "string" || options.adminToken === "")
    throw new TypeError("adminToken is required");
  const send = options.fetch ?? fetch;

  async function admin(method: "POST" | "PUT", path: string, body: unknown = {}): Promise<Record<string, unknown>> {
    const response = await send(`${base}/admin/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${options.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /admin/v1/${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
  }
  const ticketPath = (ticketCode: string, action: string) => `webinars/${encodeURIComponent(ticketCode)}/${action}`;
  const createApiKey = async (merchantId: string): Promise<Credentials> => {
    const { apiKey, secret } = await admin("POST", `merchants/${encodeURIComponent(merchantId)}/api-keys`);
    return { apiKey: String(apiKey), secret: String(secret) };
  };
  const record = (ticketCode: string, session: PlaybackSession) =>
    admin("POST", ticketPath(ticketCode, "playback-sessions"), session);

  return {
    async createMerchant() {
      const { merchantId } = await admin("POST", "merchants", { name: "Conformance kit merchant" });
      return { merchantId: String(merchantId), credentials: await createApiKey(String(merchantId)) };
    },
    createApiKey,
    async revokeApiKey(apiKey) {
      await admin("POST", `api-keys/${encodeURIComponent(apiKey)}/revoke`);
    },
    async setMerchantStatus(merchantId, status) {
      await admin("POST", `merchants/${encodeURIComponent(merchantId)}/status`, { status });
    },
    async createWebinar(merchantId, state) {
      const path = `merchants/${encodeURIComponent(merchantId)}/webinars`;
      const { ticketCode } = await admin("POST", path, { title: "Conformance kit webinar", status: state });
      return String(ticketCode);
    },
    async setWebinarState(ticketCode, state) {
      await admin("POST", ticketPath(ticketCode, "status"), { status: state });
    },
    async changeLive(ticketCode, action) {
      await admin("POST", ticketPath(ticketCode, "live"), { action });
    },
    async finalizeLive(ticketCode) {
      await admin("POST", ticketPath(ticketCode, "finalize"));
    },
    async recordPlaybackSessions(ticketCode, sessions) {
      for (let start = 0; start < sessions.length; start += RECORDING_WIDTH)
        await Promise.all(sessions.slice(start, start + RECORDING_WIDTH).map((session) => record(ticketCode, session)));
    },
    async blockDisplayNameTerms(terms) {
      await admin("PUT", "moderation/blocked-terms", { terms });
    },
    async exchangeLoginTicket(ticketCode, loginTicket) {
      const response = await send(`${base}/w/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ticketCode, loginTicket }),
      });
      await response.arrayBuffer();
      if (response.ok) return true;
      if (response.status >= 400 && response.status < 500) return false;
      throw new Error(`POST /w/api/session answered ${response.status}`);
    },
    ...(options.ticketLifetimeSeconds === undefined ? {} : { ticketLifetimeSeconds: options.ticketLifetimeSeconds }),
  };
}
