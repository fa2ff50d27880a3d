/**
 * The data every run needs, made through the server's public interfaces only (the admin API and the signed Open
 * API), so any build that keeps them can be measured: a merchant with an API key, a published webinar for the
 * tickets, viewers that already exist, a finalized webinar with watch data for the overview and the detail
 * page (sessions imported through the admin API's playback-sessions import), and for the heartbeats a live
 * webinar with viewers playing it (live-viewers.ts).
 */
import { type LiveViewers, prepareLiveViewers } from "./live-viewers";
import { adminClient, inParallel, SETUP_CONCURRENCY, upsertViewer } from "./setup-requests";
import type { Credentials } from "./signed-request";

/** What the operations' request bodies are made of, for one server (or floor) and its data. */
export interface Fixture {
  credentials: Credentials;
  /** A published webinar to issue login tickets for. */
  ticketCode: string;
  /** A finalized webinar with watch data of `watchedViewers` viewers. */
  watchTicketCode: string;
  /** External ids of the viewers that exist before the runs, and their uids, index for index. */
  existingExternalUserIds: string[];
  existingUids: number[];
  /** A live webinar and its viewers with open playback sessions; made only when the heartbeats are measured. */
  heartbeat?: LiveViewers;
}

export interface FixtureSizes {
  existingViewers: number;
  watchedViewers: number;
  /** Viewers of a live webinar with a playback session each (`Fixture.heartbeat`); 0 for none. */
  heartbeatViewers: number;
}

const DEVICE_TYPES = ["DESKTOP", "MOBILE", "TABLET"];
const PROTOCOLS = ["WEBRTC", "HLS"];
/** The external id of existing viewer `index`, the same on the server and on the floor. */
export const existingExternalUserId = (index: number): string => `existing-${index}`;

/** Creates the fixture on the server at `baseUrl`. */
export async function prepareFixture(baseUrl: string, adminToken: string, sizes: FixtureSizes): Promise<Fixture> {
  const admin = adminClient(baseUrl, adminToken);
  const { merchantId } = await admin<{ merchantId: string }>("/admin/v1/merchants", { name: "Load benchmark" }, 201);
  const credentials = await admin<Credentials>(`/admin/v1/merchants/${merchantId}/api-keys`, {}, 201);
  const { ticketCode } = await admin<{ ticketCode: string }>(
    `/admin/v1/merchants/${merchantId}/webinars`,
    { title: "Tickets" },
    201,
  );

  const existingExternalUserIds = Array.from({ length: sizes.existingViewers }, (_, index) =>
    existingExternalUserId(index),
  );
  const existingUids = await inParallel(existingExternalUserIds.length, SETUP_CONCURRENCY, (index) =>
    upsertViewer(baseUrl, credentials, existingExternalUserIds[index]!),
  );

  // Live data is imported while the webinar is live, then the live ends and is finalized, so every mode of the
  // detail query answers (LIVE and ALL answer WATCH_DATA_NOT_FINAL before that).
  const { ticketCode: watchTicketCode } = await admin<{ ticketCode: string }>(
    `/admin/v1/merchants/${merchantId}/webinars`,
    { title: "Watch data" },
    201,
  );
  const live = (action: string) => admin(`/admin/v1/webinars/${watchTicketCode}/live`, { action }, 200);
  const importSession = (session: object) =>
    admin(`/admin/v1/webinars/${watchTicketCode}/playback-sessions`, session, 201);
  await live("START");
  await inParallel(sizes.watchedViewers, SETUP_CONCURRENCY, async (index) => {
    const uid = existingUids[index]!;
    const device = {
      deviceType: DEVICE_TYPES[index % DEVICE_TYPES.length],
      protocol: PROTOCOLS[index % PROTOCOLS.length],
    };
    await importSession({ subject: { uid }, mode: "LIVE", watchSeconds: 60 + ((index * 37) % 3600), ...device });
    if (index % 2 === 0)
      await importSession({ subject: { uid }, mode: "REPLAY", watchSeconds: 30 + ((index * 53) % 1800), ...device });
  });
  await inParallel(20, SETUP_CONCURRENCY, (index) =>
    importSession({ subject: { anonymousId: `anonymous-${index}` }, mode: "LIVE", watchSeconds: 120 }),
  );
  await live("END");
  await admin(`/admin/v1/webinars/${watchTicketCode}/finalize`, {}, 200);

  const fixture: Fixture = { credentials, ticketCode, watchTicketCode, existingExternalUserIds, existingUids };
  if (sizes.heartbeatViewers > 0)
    fixture.heartbeat = await prepareLiveViewers(baseUrl, adminToken, merchantId, credentials, sizes.heartbeatViewers);
  return fixture;
}
