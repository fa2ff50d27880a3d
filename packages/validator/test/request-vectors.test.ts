/**
 * spec/test-vectors/requests: every vector through parseAndValidate, and the proof that the checked-in
 * generated validators and ajv compiling the spec at run time agree on every one of them.
 */
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { parseAndValidate } from "../src/index";
import { describe, expect, it } from "vitest";
import { renderRequestVectors, requestVectorsFolder } from "../scripts/request-vectors";
import { buildSpecSchemas, createSpecAjv } from "../scripts/spec-schemas";
import { requestValidators } from "../src/request-validators.gen.js";
import { loadRequestVectors, operationIds, vectorBytes } from "./support/request-matrix";

const cases = operationIds.flatMap((operationId) =>
  loadRequestVectors(operationId).map((vector) => [operationId, vector.description, vector] as const),
);

describe("request vectors (spec/test-vectors/requests) through parseAndValidate", () => {
  it("every operation has positive and negative vectors, each description unique and naming the outcome", () => {
    for (const operationId of operationIds) {
      const vectors = loadRequestVectors(operationId);
      expect(
        vectors.some((vector) => vector.valid),
        operationId,
      ).toBe(true);
      expect(
        vectors.some((vector) => !vector.valid),
        operationId,
      ).toBe(true);
      const descriptions = vectors.map((vector) => vector.description);
      expect(new Set(descriptions).size, operationId).toBe(descriptions.length);
      for (const vector of vectors) {
        if (vector.valid) expect(vector.description, operationId).not.toMatch(/-> \w*REQUEST_INVALID/);
        else expect(vector.description, operationId).toContain(`-> ${vector.code}`);
      }
    }
  });

  it("the files are what scripts/request-vectors.ts renders (edit the script, then run write-request-vectors.ts)", () => {
    for (const [operationId, text] of Object.entries(renderRequestVectors())) {
      expect(readFileSync(new URL(`${operationId}.json`, requestVectorsFolder), "utf8") === text, operationId).toBe(
        true,
      );
    }
  });

  it.each(cases)("%s: %s", (operationId, _description, vector) => {
    const result = parseAndValidate(operationId, vectorBytes(vector));
    if (vector.valid) {
      expect(result).toEqual({ ok: true, value: vector.normalized ?? vector.body });
      return;
    }
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.error.code).toBe(vector.code);
    const pointers = (result.error.details!.errors as Array<{ pointer: string }>).map((error) => error.pointer);
    if (vector.pointer !== undefined) expect(pointers).toContain(vector.pointer);
  });
});

describe("generated validators agree with ajv compiling the spec at run time", () => {
  const specSchemas = buildSpecSchemas();
  const runtimeAjv = createSpecAjv(specSchemas);
  const runtime = Object.fromEntries(
    specSchemas.operations.map((operation) => [operation.operationId, runtimeAjv.getSchema(operation.request.ref)!]),
  );
  const jsonCases = cases.flatMap(([operationId, description, vector]) => {
    try {
      return [
        [
          operationId,
          description,
          JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(vectorBytes(vector))),
        ] as const,
      ];
    } catch {
      return [];
    }
  });

  it("the runtime compile sees the same operations", () => {
    expect(Object.keys(runtime).sort()).toEqual(Object.keys(requestValidators).sort());
  });

  it.each(jsonCases)("%s: %s", (operationId, _description, value) => {
    const generated = requestValidators[operationId];
    const compiled = runtime[operationId]!;
    // Both on a fresh copy: validation must not depend on (or change) the value.
    const generatedValid = generated(structuredClone(value));
    const compiledValid = compiled(structuredClone(value));
    expect(generatedValid).toBe(compiledValid);
    const shape = (errors: typeof generated.errors) =>
      (errors ?? []).map(({ instancePath, schemaPath, keyword, params, message }) => ({
        instancePath,
        schemaPath,
        keyword,
        params,
        message,
      }));
    expect(isDeepStrictEqual(shape(generated.errors), shape(compiled.errors as typeof generated.errors))).toBe(true);
  });
});
