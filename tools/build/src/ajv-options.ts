/**
 * The semantics of every validator this repository generates with ajv (the spec's in @org/webinar-validator, the
 * server's own documents in @org/webinar-server), as CONTRIBUTING.md states them: JSON Schema 2020-12, strict (an
 * unknown keyword or format fails generation), every error reported, no coercion, unknown fields rejected by the
 * schemas (never removed), nothing defaulted, patterns with the `u` flag, lengths in code points (ajv's default).
 * `allowUnionTypes` admits `type: [string, "null"]` (a viewer's displayName or phone) without relaxing `strict`.
 */
export const GENERATED_VALIDATOR_OPTIONS = {
  strict: true,
  allowUnionTypes: true,
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  unicodeRegExp: true,
} as const;
