/**
 * The watch page's Content-Security-Policy allows the origins of the webinar's video URLs, read from the webinar
 * directory's memory (webinars/webinar-directory.ts), not from the database on every load: a row changed behind
 * the server's back is not seen, and setWebinarVideo, which announces the change, is seen at the next load.
 */
import { describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "./support/databases";
import { useServerPerFile } from "./support/server-per-file";

describe.each(DATABASE_KINDS)("the watch page's video origins on %s", (kind) => {
  const fixture = useServerPerFile(kind, "page_cache");

  const mediaSources = async (ticketCode: string) =>
    (await fetch(`${fixture.api.url}/w/${ticketCode}`)).headers
      .get("content-security-policy")!
      .match(/media-src ([^;]*);/)![1];

  it("from memory once read; a change through setWebinarVideo reaches the next page load", async () => {
    const created = await fixture.api.admin("POST", `/admin/v1/merchants/${fixture.merchant.merchantId}/webinars`, {
      liveVideoUrl: "https://video.example.com/live.webm",
    });
    const ticketCode = created.body.ticketCode as string;
    expect(await mediaSources(ticketCode)).toBe("'self' https://video.example.com");

    // Behind the server's back: no announcement, so the page keeps what it read.
    await fixture.database.handle.db
      .updateTable("webinars")
      .set({ live_video_url: "https://elsewhere.example.net/live.webm" })
      .where("ticket_code", "=", ticketCode)
      .execute();
    expect(await mediaSources(ticketCode)).toBe("'self' https://video.example.com");

    const set = await fixture.api.admin("POST", `/admin/v1/webinars/${ticketCode}/video`, {
      replayVideoUrl: "https://replay.example.org/r.webm",
    });
    expect(set.status).toBe(200);
    expect(await mediaSources(ticketCode)).toBe("'self' https://elsewhere.example.net https://replay.example.org");
  });
});
