/**
 * The data every run needs, made through the server's public interfaces only (the admin API and the signed Open
 * API), so any build that keeps them can be measured: a merchant with an API key, a published webinar for the
 * tickets, viewers that already exist, and a finalized webinar with watch data for the overview and the detail
 * page (sessions imported through the admin API's playback-sessions import).
 */
import type { Credentials } from "./signed-request";
import { signedHeaders } from "./signed-request";

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
}

export interface FixtureSizes {
  existingViewers: number;
  watchedViewers: number;
}

const DEVICE_TYPES = ["DESKTOP", "MOBILE", "TABLET"];
const PROTOCOLS = ["WEBRTC", "HLS"];
/** Setup requests in flight at once: quick on every database, light on the server. */
const SETUP_CONCURRENCY = 8;

/** The external id of existing viewer `index`, the same on the server and on the floor. */
export const existingExternalUserId = (index: number): string => `existing-${index}`;

/** Runs `task(0..count-1)` with at most `concurrency` in flight; the results in index order. */
export async function inParallel<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

async function expectJson(answer: Response, expectedStatus: number, what: string): Promise<unknown> {
  const text = await answer.text();
  if (answer.status !== expectedStatus)
    throw new Error(`${what}: expected ${expectedStatus}, got ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

function adminClient(baseUrl: string, adminToken: string) {
  return async <T>(path: string, body: unknown, expectedStatus: number): Promise<T> => {
    const answer = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await expectJson(answer, expectedStatus, `admin POST ${path}`)) as T;
  };
}

async function upsertViewer(baseUrl: string, credentials: Credentials, externalUserId: string): Promise<number> {
  const path = "/api/v1/open/viewers/upsert";
  const body = JSON.stringify({ externalUserId });
  const answer = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: signedHeaders(credentials, path, body),
    body,
  });
  const envelope = (await expectJson(answer, 200, `upsertViewer ${externalUserId}`)) as {
    data: { viewer: { uid: number } };
  };
  return envelope.data.viewer.uid;
}

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

  return { credentials, ticketCode, watchTicketCode, existingExternalUserIds, existingUids };
}
