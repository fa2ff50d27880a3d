/**
 * The watch page in real Chromium against the built server process (PGlite): the login ticket leaves the address
 * bar, a reload keeps the session, a used, replaced or expired link says so, no request goes to another host, nothing
 * overflows at 360 px, the Play button works from the keyboard; the sample video is served with byte ranges,
 * and a webinar's own video URL is played and allowed by the page's Content-Security-Policy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startServerProcess, type ServerProcess } from "./support/server-process";
import { foreignRequests, launchChromium, watchFixture, type WatchFixture } from "./support/watch-browser";

let server: ServerProcess;
let browser: Browser;
let fixture: WatchFixture;

beforeAll(async () => {
  server = await startServerProcess({ WEBINAR_DATA_DIR: "memory:", WEBINAR_LOG_LEVEL: "warn" });
  fixture = await watchFixture(server);
  await fixture.live("START");
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the watch page", () => {
  it("drops the ticket from the address bar, keeps the session over a reload and asks no other host", async () => {
    const { loginUrl } = await fixture.viewer("reload-1");
    const context = await browser.newContext();
    const page = await context.newPage();
    const foreign = foreignRequests(page, new URL(server.url).origin);
    await page.goto(loginUrl);
    await page.getByText("Live now").waitFor();
    expect(page.url()).toBe(`${server.url}/w/${fixture.ticketCode}`);
    expect(await page.title()).toBe(`Webinar ${fixture.ticketCode}`);
    await page.reload();
    await page.getByText("Live now").waitFor();
    await page.getByRole("button", { name: "Play" }).click();
    await page.getByRole("button", { name: "Pause" }).waitFor();
    expect(foreign).toEqual([]);
    const csp = (await context.request.get(`${server.url}/w/${fixture.ticketCode}`)).headers()[
      "content-security-policy"
    ];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    await context.close();
  });

  it("a used link says so and asks for a new one; so does a replaced one", async () => {
    const { uid, loginUrl } = await fixture.viewer("used-1");
    const first = await browser.newContext();
    await (await first.newPage()).goto(loginUrl);
    await first.pages()[0]!.getByText("Live now").waitFor();
    await first.close();
    const second = await browser.newContext();
    const page = await second.newPage();
    await page.goto(loginUrl);
    await page.getByRole("alert").getByText("This link has already been used. Please ask for a new link.").waitFor();
    expect(await page.getByRole("button", { name: "Play" }).isVisible()).toBe(false);

    const replaced = await fixture.ticket(uid);
    await fixture.ticket(uid);
    await page.goto(replaced);
    await page
      .getByRole("alert")
      .getByText("This link was replaced by a newer one. Please ask for a new link.")
      .waitFor();
    await page.goto(`${server.url}/w/${fixture.ticketCode}`);
    await page.getByRole("alert").getByText("Open this page with the login link you were given.").waitFor();
    await second.close();
  });

  it("fits 360 px without horizontal scrolling", async () => {
    const { loginUrl } = await fixture.viewer("narrow-1");
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(loginUrl);
    await page.getByRole("button", { name: "Play" }).waitFor();
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    console.log(`watch page at 360 px: scrollWidth ${widths.scroll}, clientWidth ${widths.client}`);
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await context.close();
  });

  it("Tab reaches the Play button, Space and Enter toggle it", async () => {
    const { loginUrl } = await fixture.viewer("keyboard-1");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(loginUrl);
    await page.waitForFunction(() => !(document.getElementById("play") as HTMLButtonElement).disabled);
    let presses = 0;
    while (!(await page.evaluate(() => document.activeElement?.id === "play")) && presses < 10) {
      await page.keyboard.press("Tab");
      presses += 1;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Play");
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Pause" }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Play" }).waitFor();
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe("solid");
    await context.close();
  });
});

describe("an expired link", () => {
  // Expiry is counted from the whole second of issue, so a ticket lives between TTL - 1 and TTL seconds: long
  // enough here for a fresh link to be opened before it expires, even on a busy machine.
  const TICKET_TTL_SECONDS = 4;
  let shortLived: ServerProcess;
  let shortFixture: WatchFixture;

  beforeAll(async () => {
    shortLived = await startServerProcess({
      WEBINAR_DATA_DIR: "memory:",
      WEBINAR_LOG_LEVEL: "warn",
      WEBINAR_TICKET_TTL_SECONDS: String(TICKET_TTL_SECONDS),
    });
    shortFixture = await watchFixture(shortLived);
  }, 60_000);

  afterAll(async () => {
    await shortLived?.stop();
  });

  it("says it has expired and asks for a new one; a new link works", async () => {
    const { uid, loginUrl } = await shortFixture.viewer("expired-1");
    await new Promise((resolve) => setTimeout(resolve, TICKET_TTL_SECONDS * 1000 + 100));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(loginUrl);
    await page.getByRole("alert").getByText("This link has expired. Please ask for a new link.").waitFor();
    expect(await page.getByRole("button", { name: "Play" }).isVisible()).toBe(false);

    await page.goto(await shortFixture.ticket(uid));
    await page.getByText("Scheduled").waitFor();
    expect(await page.getByRole("alert").isVisible()).toBe(false);
    await context.close();
  });
});

describe("the page's API", () => {
  it("the exchange gives a reason only for a real ticket of that webinar; the state needs the session", async () => {
    const { loginUrl } = await fixture.viewer("api-1");
    const loginTicket = new URL(loginUrl).hash.replace("#login_ticket=", "");
    const exchange = (ticketCode: string, ticket: string) =>
      fetch(`${server.url}/w/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ticketCode, loginTicket: ticket }),
      });
    const first = await exchange(fixture.ticketCode, loginTicket);
    expect(first.status).toBe(200);
    const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
    const again = (await (await exchange(fixture.ticketCode, loginTicket)).json()) as {
      error: { code: string; details?: unknown };
    };
    expect(again.error).toMatchObject({ code: "LOGIN_TICKET_INVALID", details: { reason: "USED" } });
    const otherWebinar = (await (await exchange("wbn-other", loginTicket)).json()) as {
      error: { code: string; details?: unknown };
    };
    expect(otherWebinar.error.code).toBe("LOGIN_TICKET_INVALID");
    expect(otherWebinar.error.details).toBeUndefined();
    const unknown = (await (await exchange(fixture.ticketCode, `${loginTicket.slice(0, -4)}AAAA`)).json()) as {
      error: { code: string; details?: unknown };
    };
    expect(unknown.error.code).toBe("LOGIN_TICKET_INVALID");
    expect(unknown.error.details).toBeUndefined();

    const state = await fetch(`${server.url}/w/api/state?ticketCode=${fixture.ticketCode}`, { headers: { cookie } });
    expect(state.status).toBe(200);
    expect(await state.json()).toMatchObject({
      ticketCode: fixture.ticketCode,
      state: "LIVE",
      mode: "LIVE",
      videoUrl: "/w/assets/sample.webm",
      heartbeatIntervalSeconds: 15,
    });
    expect((await fetch(`${server.url}/w/api/state?ticketCode=${fixture.ticketCode}`)).status).toBe(401);
    expect((await fetch(`${server.url}/w/api/state?ticketCode=wbn-other`, { headers: { cookie } })).status).toBe(401);
  });
});

describe("the video", () => {
  it("the sample video is WebM under 1 MB and answers byte ranges with 206", async () => {
    const whole = await fetch(`${server.url}/w/assets/sample.webm`);
    const size = (await whole.arrayBuffer()).byteLength;
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/webm");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(size).toBeGreaterThan(10_000);
    expect(size).toBeLessThan(1024 * 1024);
    const part = await fetch(`${server.url}/w/assets/sample.webm`, { headers: { range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    const tail = await fetch(`${server.url}/w/assets/sample.webm`, { headers: { range: "bytes=-10" } });
    expect(tail.headers.get("content-range")).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    const outside = await fetch(`${server.url}/w/assets/sample.webm`, { headers: { range: `bytes=${size}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get("content-range")).toBe(`bytes */${size}`);
  });

  it("a webinar's own video URLs: set on create and by setWebinarVideo, played by the page, allowed by its CSP", async () => {
    const created = await server.admin.POST("/admin/v1/merchants/{merchantId}/webinars", {
      params: { path: { merchantId: fixture.merchantId } },
      body: { title: "Own video", liveVideoUrl: "https://video.example.com/live.webm" },
    });
    expect(created.response.status).toBe(201);
    const ticketCode = created.data!.ticketCode;
    const setVideo = (webinar: string, body: { liveVideoUrl?: string | null; replayVideoUrl?: string | null }) =>
      server.admin.POST("/admin/v1/webinars/{ticketCode}/video", { params: { path: { ticketCode: webinar } }, body });
    const set = await setVideo(ticketCode, { replayVideoUrl: "https://replay.example.org/r.webm" });
    expect(set.response.status).toBe(200);
    expect(set.data).toMatchObject({
      ticketCode,
      liveVideoUrl: "https://video.example.com/live.webm",
      replayVideoUrl: "https://replay.example.org/r.webm",
    });
    const cleared = await setVideo(ticketCode, { replayVideoUrl: null });
    expect(cleared.data).toMatchObject({ liveVideoUrl: "https://video.example.com/live.webm", replayVideoUrl: null });
    expect((await setVideo(ticketCode, { liveVideoUrl: "javascript:alert(1)" })).response.status).toBe(400);
    expect((await setVideo("no-such-webinar", {})).response.status).toBe(404);

    const csp = (await fetch(`${server.url}/w/${ticketCode}`)).headers.get("content-security-policy");
    expect(csp).toContain("media-src 'self' https://video.example.com;");

    await server.admin.POST("/admin/v1/webinars/{ticketCode}/live", {
      params: { path: { ticketCode } },
      body: { action: "START" },
    });
    const { viewer } = await fixture.client.upsertViewer({ externalUserId: "own-video-1" });
    const { loginUrl } = await fixture.client.issueLoginTicket({ uid: viewer.uid, ticketCode });
    const context = await browser.newContext();
    const page = await context.newPage();
    // The example host does not exist: answer its request here so the test needs no network.
    const asked: string[] = [];
    await context.route("https://video.example.com/**", (route) => {
      asked.push(route.request().url());
      return route.fulfill({ status: 404, body: "" });
    });
    await page.goto(loginUrl);
    await page.getByRole("heading", { name: "Own video" }).waitFor();
    expect(await page.evaluate(() => document.querySelector("video")!.getAttribute("src"))).toBe(
      "https://video.example.com/live.webm",
    );
    await context.close();
  });
});
