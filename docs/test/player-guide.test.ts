/**
 * The guide "Build your own player" (player.md) against the watch page API it explains
 * (packages/server/watch-openapi.yaml): it links every operation (and only operations that exist), states the
 * heartbeat interval the server announces and the cap of twice it, and says what to do with every error code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { rootDir, serverDocumentPath } from "../scripts/site.ts";

const guide = readFileSync(join(rootDir, "docs", "player.md"), "utf8");
const watch = parse(readFileSync(serverDocumentPath("watch-openapi.yaml"), "utf8")) as Record<string, any>;
const operationIds = Object.values(watch.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
  (item) => Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
);

describe("docs: Build your own player", () => {
  it("links every operation of the watch page API, and only operations that exist", () => {
    const linked = [...guide.matchAll(/\(watch\.html#operation\/(\w+)\)/g)].map((match) => match[1]);
    expect([...new Set(linked)].sort()).toEqual([...operationIds].sort());
  });

  it("states the heartbeat interval the start announces, and the cap of twice it", () => {
    const start = watch.paths["/w/api/playback/start"].post.responses["200"].content["application/json"].example;
    const interval = start.heartbeatIntervalSeconds as number;
    expect(guide).toContain(`\`heartbeatIntervalSeconds\`, ${interval} seconds`);
    expect(guide).toContain(`at most twice the interval, ${2 * interval} seconds`);
  });

  it("says what to do with every error code of the watch page API", () => {
    const table = guide.slice(guide.indexOf("## Errors"));
    for (const code of watch.components.schemas.WatchErrorCode.enum as string[]) {
      expect(table, code).toMatch(new RegExp(`\\| \`${code}\` \\|[^\\n]+\\|[^\\n]+\\|`));
    }
  });
});
