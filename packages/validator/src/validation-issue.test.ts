import { describe, expect, it } from "vitest";
import { toValidationIssue, type SchemaError } from "./validation-issue";

const error = (overrides: Partial<SchemaError>): SchemaError => ({
  instancePath: "",
  schemaPath: "#",
  keyword: "type",
  params: {},
  ...overrides,
});

describe("toValidationIssue: an ajv error as a details.errors entry", () => {
  it.each([
    [
      "a missing property is pointed at by its own name",
      error({ keyword: "required", params: { missingProperty: "a/b" }, message: "must have required property 'a/b'" }),
      { pointer: "/a~1b", rule: "required", message: "must have required property 'a/b'" },
    ],
    [
      "an unknown property is pointed at by its own name, ~ escaped",
      error({ instancePath: "/subject", keyword: "additionalProperties", params: { additionalProperty: "x~" } }),
      {
        pointer: "/subject/x~0",
        rule: "additionalProperties",
        message: "is not a field of this operation (unknown fields are rejected)",
      },
    ],
    [
      "a pattern with words: the words",
      error({ instancePath: "/code", keyword: "pattern", params: { pattern: "^[a-z]+$" }, message: "must match" }),
      { pointer: "/code", rule: "pattern", message: "must be lower-case letters" },
    ],
    [
      "a pattern without words: ajv's message",
      error({
        instancePath: "/code",
        keyword: "pattern",
        params: { pattern: "^x$" },
        message: 'must match pattern "^x$"',
      }),
      { pointer: "/code", rule: "pattern", message: 'must match pattern "^x$"' },
    ],
    [
      "a keyword without a message names itself",
      error({ instancePath: "/n", keyword: "multipleOf", params: { multipleOf: 2 } }),
      { pointer: "/n", rule: "multipleOf", message: "violates multipleOf" },
    ],
  ])("%s", (_label, input, expected) => {
    expect(toValidationIssue(input, { "^[a-z]+$": "must be lower-case letters" })).toEqual(expected);
  });
});
