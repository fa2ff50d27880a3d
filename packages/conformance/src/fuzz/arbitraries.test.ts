import fc from "fast-check";
import { operations, type OperationId } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { requestVerdict } from "../oracle/request-verdict";
import { requestSchemas } from "../request-schemas.gen";
import { brokenArbitrary, schemaArbitrary } from "./arbitraries";
import { humanText } from "./human-text";

const operationIds = Object.keys(operations) as OperationId[];
const verdictOf = (operationId: OperationId, body: unknown) => requestVerdict(operationId, JSON.stringify(body) ?? "");

describe("fuzz arbitraries built from the request schemas", () => {
  it.each(operationIds)("%s: every broken body is refused by the kit's reading of the spec", (operationId) => {
    fc.assert(
      fc.property(brokenArbitrary(requestSchemas[operationId]), (body) => !verdictOf(operationId, body).ok),
      { seed: 42, numRuns: 300 },
    );
  });

  it.each(operationIds)(
    "%s: most schema bodies are valid, so the valid check reaches the server's logic",
    (operationId) => {
      const bodies = fc.sample(schemaArbitrary(requestSchemas[operationId]), { seed: 42, numRuns: 300 });
      const valid = bodies.filter((body) => verdictOf(operationId, body).ok).length;
      expect(valid / bodies.length).toBeGreaterThan(0.5);
    },
  );

  it("names people type: with every seed, 200 names hold several with a digit and a q, Chinese, emoji and spaces", () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const names = fc.sample(humanText(80), { seed, numRuns: 200 });
      const count = (pattern: RegExp) => names.filter((name) => pattern.test(name.trim())).length;
      expect(names.filter((name) => /\d/.test(name) && /q/i.test(name)).length, `seed ${seed}`).toBeGreaterThan(5);
      expect(count(/[\u4e00-\u9fff]/), `seed ${seed}`).toBeGreaterThan(20);
      expect(count(/\p{Extended_Pictographic}/u), `seed ${seed}`).toBeGreaterThan(5);
      expect(count(/\S \S/), `seed ${seed}`).toBeGreaterThan(20);
      expect(count(/^[A-Z][a-z]/), `seed ${seed}`).toBeGreaterThan(10);
      for (const name of names)
        expect(verdictOf("upsertViewer", { externalUserId: "x", displayName: name }).ok).toBe(true);
    }
  });

  it("one seed draws the same bodies again: --seed replays a run", () => {
    const draw = () => fc.sample(brokenArbitrary(requestSchemas.queryViewerWatch), { seed: 7, numRuns: 50 });
    expect(JSON.stringify(draw())).toBe(JSON.stringify(draw()));
  });
});
