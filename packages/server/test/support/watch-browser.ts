/**
 * The watch page in real Chromium (Debian's `chromium` through playwright-core) against a real server process:
 * a merchant, key and webinar made through the admin API, a viewer and a login ticket through the Open API with
 * @org/webinar-client, as an integrator does it.
 */
import type { BrowserContext, Page } from "playwright-core";
import { createWebinarClient, type WebinarClient } from "@org/webinar-client";
import { adminData } from "@org/webinar-test-support/admin-client";
import { adminMerchant, type ServerProcess } from "./server-process";

export { launchChromium } from "@org/webinar-test-support/browser";

export interface WatchFixture {
  client: WebinarClient;
  ticketCode: string;
  merchantId: string;
  /** A new viewer (by external id) and a fresh login URL for it. */
  viewer(externalUserId: string): Promise<{ uid: number; loginUrl: string }>;
  /** Another login URL for an existing viewer (supersedes its unused one). */
  ticket(uid: number): Promise<string>;
  live(action: "START" | "END" | "CANCEL" | "FAIL"): Promise<void>;
  /** Finalizes the live data now (after END), so the detail query lists LIVE seconds. */
  finalize(): Promise<void>;
  /** The detail query's record of a viewer in a mode (queryViewerWatch), or undefined when it has none. */
  watchOf(uid: number, playbackMode: "LIVE" | "REPLAY"): Promise<ViewerWatch | undefined>;
}

export type ViewerWatch = Awaited<ReturnType<WebinarClient["queryViewerWatch"]>>["items"][number];

/** The webinar's video URLs (setWebinarVideo); none: the page plays the sample video. */
export interface WebinarVideos {
  liveVideoUrl?: string;
  replayVideoUrl?: string;
}

/** A merchant with an API key and a webinar (with `videos`, when given), on `server`. */
export async function watchFixture(server: ServerProcess, videos?: WebinarVideos): Promise<WatchFixture> {
  const merchant = await adminMerchant(server);
  const webinar = { params: { path: { ticketCode: merchant.ticketCode } } };
  if (videos !== undefined)
    await adminData(server.admin.POST("/admin/v1/webinars/{ticketCode}/video", { ...webinar, body: videos }));
  const client = createWebinarClient({
    baseUrl: server.url,
    apiKey: merchant.apiKey,
    secret: merchant.secret,
    retry: false,
  });
  const ticket = async (uid: number) =>
    (await client.issueLoginTicket({ uid, ticketCode: merchant.ticketCode })).loginUrl;
  return {
    client,
    ticketCode: merchant.ticketCode,
    merchantId: merchant.merchantId,
    ticket,
    async viewer(externalUserId) {
      const { viewer } = await client.upsertViewer({ externalUserId });
      return { uid: viewer.uid, loginUrl: await ticket(viewer.uid) };
    },
    async live(action) {
      await adminData(server.admin.POST("/admin/v1/webinars/{ticketCode}/live", { ...webinar, body: { action } }));
    },
    async finalize() {
      await adminData(server.admin.POST("/admin/v1/webinars/{ticketCode}/finalize", { ...webinar, body: {} }));
    },
    async watchOf(uid, playbackMode) {
      const detail = await client.queryViewerWatch({
        ticketCode: merchant.ticketCode,
        playbackMode,
        uids: [uid],
        sort: "WATCH_SECONDS_DESC",
        pageSize: 10,
      });
      return detail.items.find((entry) => entry.uid === uid);
    },
  };
}

/** Every request the page makes to a host other than `origin`, recorded from now on. */
export function foreignRequests(page: Page, origin: string): string[] {
  const foreign: string[] = [];
  page.on("request", (request) => {
    const target = new URL(request.url());
    if (target.protocol !== "data:" && target.protocol !== "blob:" && target.origin !== origin)
      foreign.push(request.url());
  });
  return foreign;
}

/**
 * Shows or hides the page as a switch to another tab would: `document.visibilityState` and `document.hidden`
 * change and `visibilitychange` fires. Headless Chromium keeps every page visible whatever tab or window state it
 * is given, and Playwright has no call for it, so the page's own view of visibility is set here; the video, the
 * page's script and every request stay real.
 */
export async function setPageVisibility(page: Page, visibility: "visible" | "hidden"): Promise<void> {
  await page.evaluate((state) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, visibility);
}

/**
 * Makes the browser say it cannot play HLS itself, as Firefox (and Chromium without its HLS player) does:
 * `canPlayType` answers "" for the HLS types in every page of the context, before any script of the page runs.
 */
export async function denyNativeHls(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const canPlayType = HTMLMediaElement.prototype.canPlayType;
    HTMLMediaElement.prototype.canPlayType = function (this: HTMLMediaElement, type: string) {
      return /mpegurl/i.test(type) ? "" : canPlayType.call(this, type);
    } as typeof canPlayType;
  });
}
