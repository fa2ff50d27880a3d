/**
 * A person in the console, over HTTP as the browser app talks to it: the session cookie kept between requests,
 * `Origin` set to the server's own on every request (a browser sends it on unsafe ones), the client address it
 * comes from through `X-Forwarded-For` (for a server that trusts 127.0.0.1 as its proxy), and helpers for invites
 * through the admin API and for the codes of an authenticator app.
 */
import { consoleOperations } from "@org/webinar-console-contract/validators";
import { Secret, TOTP } from "otpauth";
import { checkDocumentAnswer } from "./document-answers";
import type { TestServer } from "./harness";

export interface ConsoleAnswer {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

export interface ConsolePersonClient {
  /** A console API call; `origin: null` leaves Origin out, a string sends that one. */
  call(
    method: string,
    path: string,
    body?: unknown,
    options?: { origin?: string | null; headers?: Record<string, string> },
  ): Promise<ConsoleAnswer>;
  /** The session cookie's value now (undefined before sign-in or after sign-out). */
  readonly cookie: string | undefined;
}

export const STRONG_PASSWORD = "correct horse battery staple";

/** The code an authenticator app shows at `nowMs` for a base32 secret (otpauth, as such apps compute it). */
export function totpCode(secret: string, nowMs: number): string {
  return new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: nowMs,
  });
}

/**
 * A browser of the console; `forwardedFor` is the client address a trusted proxy would forward (sent as
 * `X-Forwarded-For` on every request).
 */
export function consolePerson(
  api: Pick<TestServer, "url">,
  initialCookie?: string,
  forwardedFor?: string,
): ConsolePersonClient {
  let cookie = initialCookie;
  return {
    get cookie() {
      return cookie;
    },
    async call(method, path, body, options = {}) {
      const headers: Record<string, string> = {
        ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }),
        ...options.headers,
      };
      const origin = options.origin === undefined ? api.url : options.origin;
      if (origin !== null) headers.origin = origin;
      if (cookie !== undefined) headers.cookie = `webinar_console=${cookie}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      });
      for (const setCookie of response.headers.getSetCookie()) {
        const match = /^webinar_console=([^;]*);.*Max-Age=(\d+)/.exec(setCookie);
        if (match !== null) cookie = match[2] === "0" ? undefined : match[1];
      }
      const text = await response.text();
      checkDocumentAnswer("console", { method, path }, { status: response.status, headers: response.headers, text });
      const isJson = response.headers.get("content-type")?.startsWith("application/json") ?? false;
      return {
        status: response.status,
        body: isJson && text !== "" ? JSON.parse(text) : undefined,
        headers: response.headers,
        text,
      };
    },
  };
}

/** The token of an invite URL's fragment. */
export function inviteToken(inviteUrl: string): string {
  const token = new URL(inviteUrl).hash.replace(/^#token=/, "");
  if (token === "") throw new Error(`no token in ${inviteUrl}`);
  return token;
}

/** Invites `email` to the merchant (admin API) and accepts the invite: a signed-in person of that role. */
export async function signedInPerson(
  api: TestServer,
  merchantId: string,
  email: string,
  role: "OWNER" | "ANALYST" = "OWNER",
  forwardedFor?: string,
): Promise<ConsolePersonClient & { userId: string }> {
  const invite = await api.admin("POST", `/admin/v1/merchants/${merchantId}/console-users`, { email, role });
  if (invite.status !== 201) throw new Error(`invite: ${invite.status} ${JSON.stringify(invite.body)}`);
  const person = consolePerson(api, undefined, forwardedFor);
  const accepted = await person.call("POST", "/console/api/session/invite", {
    token: inviteToken(invite.body.inviteUrl),
    password: STRONG_PASSWORD,
  });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return Object.assign(person, { userId: invite.body.userId as string });
}

/** A request of each operation with path parameters filled in and a body its schema accepts. */
export function sampleCall(operationId: keyof typeof consoleOperations, ticketCode: string, apiKey: string) {
  const { method, path } = consoleOperations[operationId];
  const filled = path
    .replace("{ticketCode}", ticketCode)
    .replace("{apiKey}", apiKey)
    .replace("{userId}", "cu_nobody")
    .replace("{sessionId}", "ses_nobody");
  const bodies: Partial<Record<keyof typeof consoleOperations, unknown>> = {
    acceptInvite: { token: "inv_unknown", password: STRONG_PASSWORD },
    signIn: { email: "nobody@example.com", password: "whatever-password" },
    confirmPassword: { password: "whatever-password" },
    confirmTwoFactorEnrollment: { code: "123456" },
    invitePerson: { email: "someone@example.com", role: "ANALYST" },
    changePersonRole: { role: "ANALYST" },
    setTwoFactorRequirement: { required: false },
    setLanguage: { language: "zh-CN" },
    rollApiKey: { graceSeconds: 60 },
    setWebinarStatus: { status: "HIDDEN" },
    runLive: { action: "START" },
    setWebinarVideos: { liveVideoUrl: "https://video.example.com/live.webm" },
    createWebinar: { title: "Another" },
    queryViewers: { mode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 10 },
  };
  const needsMode = [
    "getWatchOverview",
    "getConcurrencySeries",
    "getWatchTimeDistribution",
    "getDeviceBreakdown",
    "exportViewers",
  ];
  const query = needsMode.includes(operationId) ? "?mode=ALL" : "";
  return { method, path: `${filled}${query}`, body: method === "GET" ? undefined : (bodies[operationId] ?? {}) };
}
