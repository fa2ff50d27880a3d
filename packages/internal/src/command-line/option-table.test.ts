/** The options part of a help text: one row per option, the help column aligned, the variable in brackets. */
import { describe, expect, it } from "vitest";
import { optionTable } from "./option-table";

describe("optionTable", () => {
  it("aligns the help of every option after the longest flag", () => {
    expect(
      optionTable({
        "base-url": { type: "string", value: "URL", help: "the API's base URL", env: "WEBINAR_BASE_URL" },
        json: { type: "boolean", help: "print JSON" },
        help: { type: "boolean", short: "h", help: "show help" },
      }),
    ).toBe(
      [
        "  --base-url URL  the API's base URL [WEBINAR_BASE_URL]",
        "  --json          print JSON",
        "  -h, --help      show help",
      ].join("\n"),
    );
  });
});
