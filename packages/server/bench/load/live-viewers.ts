/**
 * The heartbeat row's viewers, made before anything is timed, the way real viewers get there: the merchant's
 * backend upserts each viewer and issues a login ticket (signed Open API), the watch page exchanges the ticket
 * for a watch session (`POST /w/api/session`, which sets the session cookie) and starts a LIVE playback
 * (`POST /w/api/playback/start`) while the webinar is live (admin API). The timed runs then only send heartbeats.
 */
import { adminClient, expectJson, inParallel, SETUP_CONCURRENCY, signedCall, upsertViewer } from "./setup-requests";
import type { Credentials } from "./signed-request";

/** The viewers of a live webinar, each with a watch session (its cookie) and a LIVE playback session. */
export interface LiveViewers {
  ticketCode: string;
  viewers: { cookie: string; playbackId: string }[];
}

const SESSION_COOKIE = "webinar_session";

/** The external id of live viewer `index`. */
const liveExternalUserId = (index: number): string => `live-${index}`;

async function issueLoginTicket(
  baseUrl: string,
  credentials: Credentials,
  uid: number,
  ticketCode: string,
): Promise<string> {
  const data = await signedCall<{ loginTicket: string }>(baseUrl, credentials, "/api/v1/open/viewers/login-tickets", {
    uid,
    ticketCode,
  });
  return data.loginTicket;
}

/** The watch page's ticket exchange; returns the `Cookie` header value that carries the session. */
async function exchangeTicket(baseUrl: string, ticketCode: string, loginTicket: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/w/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ticketCode, loginTicket }),
  });
  await expectJson(answer, 200, "POST /w/api/session");
  const cookie = answer.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(";")[0]!)
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`));
  if (cookie === undefined) throw new Error(`POST /w/api/session answered 200 without a ${SESSION_COOKIE} cookie`);
  return cookie;
}

async function startLivePlayback(baseUrl: string, cookie: string, ticketCode: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/w/api/playback/start`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP", ticketCode }),
  });
  const started = (await expectJson(answer, 200, "POST /w/api/playback/start")) as { playbackId: string };
  return started.playbackId;
}

/** Makes a live webinar of the merchant with `count` viewers, each playing it in a playback session of its own. */
export async function prepareLiveViewers(
  baseUrl: string,
  adminToken: string,
  merchantId: string,
  credentials: Credentials,
  count: number,
): Promise<LiveViewers> {
  const admin = adminClient(baseUrl, adminToken);
  const { ticketCode } = await admin<{ ticketCode: string }>(
    `/admin/v1/merchants/${merchantId}/webinars`,
    { title: "Live" },
    201,
  );
  await admin(`/admin/v1/webinars/${ticketCode}/live`, { action: "START" }, 200);
  const viewers = await inParallel(count, SETUP_CONCURRENCY, async (index) => {
    const uid = await upsertViewer(baseUrl, credentials, liveExternalUserId(index));
    // Each ticket is exchanged at once, well within its lifetime.
    const cookie = await exchangeTicket(
      baseUrl,
      ticketCode,
      await issueLoginTicket(baseUrl, credentials, uid, ticketCode),
    );
    return { cookie, playbackId: await startLivePlayback(baseUrl, cookie, ticketCode) };
  });
  return { ticketCode, viewers };
}
