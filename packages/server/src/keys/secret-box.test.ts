import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { systemRuntime } from "../runtime";
import { createSecretBox } from "./secret-box";

describe("secret box (AES-256-GCM)", () => {
  const box = createSecretBox(randomBytes(32), systemRuntime);

  it("opens what it sealed, with a fresh IV each time", () => {
    const a = box.seal("s3cret", "wk_live_1");
    expect(box.open(a, "wk_live_1")).toBe("s3cret");
    expect(box.seal("s3cret", "wk_live_1")).not.toBe(a);
    expect(a).not.toContain("s3cret");
  });

  it.each([
    ["another API key as associated data", (sealed: string) => box.open(sealed, "wk_live_2")],
    ["another key", (sealed: string) => createSecretBox(randomBytes(32), systemRuntime).open(sealed, "wk_live_1")],
    [
      "a tampered ciphertext",
      (sealed: string) => box.open(sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA"), "wk_live_1"),
    ],
  ])("refuses %s", (_label, open) => {
    expect(() => open(box.seal("s3cret", "wk_live_1"))).toThrow();
  });
});
