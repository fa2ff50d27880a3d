import { describe, expect, it } from "vitest";
import { ClockSkew } from "./clock-skew";

const local = Date.parse("2026-11-21T14:00:00Z");
const dateAt = (offsetSeconds: number) => new Date(local + offsetSeconds * 1000).toUTCString();

describe("ClockSkew", () => {
  it.each([
    { rule: "no answer yet: no correction", date: null, offset: 0, correction: 0 },
    { rule: "server 10 minutes ahead: corrected", date: dateAt(600), offset: 600_000, correction: 600_000 },
    { rule: "server 10 minutes behind: corrected", date: dateAt(-600), offset: -600_000, correction: -600_000 },
    { rule: "offset within the 30 s threshold is noise", date: dateAt(30), offset: 30_000, correction: 0 },
    { rule: "just beyond the threshold is corrected", date: dateAt(31), offset: 31_000, correction: 31_000 },
    { rule: "an unparsable Date changes nothing", date: "yesterday-ish", offset: 0, correction: 0 },
  ])("$rule", ({ date, offset, correction }) => {
    const skew = new ClockSkew();
    skew.learn(date, local);
    expect(skew.offsetMs).toBe(offset);
    expect(skew.correctionMs()).toBe(correction);
  });

  it("the latest answer wins, so a fixed local clock is followed back", () => {
    const skew = new ClockSkew();
    skew.learn(dateAt(600), local);
    skew.learn(dateAt(0), local);
    expect(skew.correctionMs()).toBe(0);
  });

  it.each([
    { rule: "signed without correction, now known 10 min off: skewed", used: 0, learned: 600, expected: true },
    { rule: "signed with the correction already: not skewed", used: 600_000, learned: 600, expected: false },
    { rule: "small offset: not skewed", used: 0, learned: 5, expected: false },
  ])("wasSkewed: $rule", ({ used, learned, expected }) => {
    const skew = new ClockSkew();
    skew.learn(dateAt(learned), local);
    expect(skew.wasSkewed(used)).toBe(expected);
  });

  it("a custom threshold applies, and a negative one is refused", () => {
    const skew = new ClockSkew(5);
    skew.learn(dateAt(6), local);
    expect(skew.correctionMs()).toBe(6000);
    expect(() => new ClockSkew(-1)).toThrow(RangeError);
  });
});
