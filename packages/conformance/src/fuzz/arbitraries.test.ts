import fc from "fast-check";
import { operations, type OperationId } from "@org/webinar-types";
import { parseAndValidate } from "@org/webinar-validator";
import { describe, expect, it } from "vitest";
import { requestSchemas } from "../request-schemas.gen";
import { brokenArbitrary, schemaArbitrary } from "./arbitraries";

const operationIds = Object.keys(operations) as OperationId[];
const verdictOf = (operationId: OperationId, body: unknown) =>
  parseAndValidate(operationId, JSON.stringify(body) ?? "");

describe("fuzz arbitraries built from the request schemas", () => {
  it.each(operationIds)("%s: every broken body is refused by the spec's validator", (operationId) => {
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

  it("one seed draws the same bodies again: --seed replays a run", () => {
    const draw = () => fc.sample(brokenArbitrary(requestSchemas.queryViewerWatch), { seed: 7, numRuns: 50 });
    expect(JSON.stringify(draw())).toBe(JSON.stringify(draw()));
  });
});
