import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { type CpuProfile, plainLocation, sourceLocationMapper, topSelfTime } from "./cpu-profile";

const frame = (functionName: string, url = "", lineNumber = -1) => ({
  functionName,
  url,
  lineNumber,
  columnNumber: 0,
});

/**
 * Samples 1 ms apart from t = 1000 µs: node 2 (handler) three times, idle twice, then GC, an anonymous function
 * and handler again; the profile ends 1 ms after the last sample.
 */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)") },
    { id: 2, callFrame: frame("handler", "file:///app/server.js", 41) },
    { id: 3, callFrame: frame("(idle)") },
    { id: 4, callFrame: frame("(garbage collector)") },
    { id: 5, callFrame: frame("", "node:internal/url", 9) },
  ],
  startTime: 0,
  endTime: 9000,
  samples: [2, 2, 2, 3, 3, 4, 5, 2],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe("topSelfTime", () => {
  test("the whole profile: self time per function over the busy time, idle left out, largest first", () => {
    const summary = topSelfTime(profile, { fromMicros: 0, toMicros: 10_000 }, 10);
    expect(summary).toEqual({
      windowMicros: 8000,
      busyMicros: 6000,
      entries: [
        { functionName: "handler", location: "file:///app/server.js:42", selfMicros: 4000, share: 4000 / 6000 },
        { functionName: "(garbage collector)", location: "", selfMicros: 1000, share: 1000 / 6000 },
        { functionName: "(anonymous)", location: "node:internal/url:10", selfMicros: 1000, share: 1000 / 6000 },
      ],
    });
  });

  test("only the samples taken inside the window count (its end excluded)", () => {
    // Samples at 4000 (idle), 5000 (idle), 6000 (GC); the one at 7000 is the window's end.
    const summary = topSelfTime(profile, { fromMicros: 4000, toMicros: 7000 }, 10);
    expect(summary.windowMicros).toBe(3000);
    expect(summary.busyMicros).toBe(1000);
    expect(summary.entries.map((entry) => [entry.functionName, entry.share])).toEqual([["(garbage collector)", 1]]);
  });

  test("at most `limit` entries; a window without samples has no busy time", () => {
    expect(topSelfTime(profile, { fromMicros: 0, toMicros: 10_000 }, 1).entries).toHaveLength(1);
    expect(topSelfTime(profile, { fromMicros: 20_000, toMicros: 30_000 }, 5)).toEqual({
      windowMicros: 0,
      busyMicros: 0,
      entries: [],
    });
  });
});

describe("sourceLocationMapper", () => {
  test("a bundle's line is given in its source through the .map beside it; files without one as they are", () => {
    const root = mkdtempSync(join(tmpdir(), "cpu-profile-test-"));
    const bundle = join(root, "dist", "main.js");
    const plain = join(root, "dist", "plain.js");
    mkdirSync(join(root, "dist"));
    writeFileSync(bundle, "a();\nb();\n");
    writeFileSync(plain, "c();\n");
    // Generated line 1 is src/a.ts line 1, generated line 2 is src/a.ts line 3 (VLQ "E" = +2 lines).
    writeFileSync(
      `${bundle}.map`,
      JSON.stringify({ version: 3, sources: ["../src/a.ts"], names: [], mappings: "AAAA;AAEA" }),
    );
    const map = sourceLocationMapper(root);
    expect(map(pathToFileURL(bundle).href, 1, 0)).toBe("src/a.ts:3");
    expect(map(pathToFileURL(plain).href, 0, 0)).toBe("dist/plain.js:1");
    expect(map(pathToFileURL(join(root, "node_modules", "pkg", "lib", "x.js")).href, 4, 0)).toBe("pkg/lib/x.js:5");
    expect(map("node:internal/url", 9, 0)).toBe(plainLocation("node:internal/url", 9, 0));
    expect(map("", -1, -1)).toBe("");
  });
});
