/**
 * The classifier of changes between two versions of the Open API document (`pnpm check:api-changes`, the release's
 * changelog and the docs' changelog page): each change judged for clients and for servers, with its level.
 */
export { apiChangesSection, API_CHANGES_HEADING, withApiChangesSection } from "./changelog-section.ts";
export { apiChangeBullets, describeChange, diffApi, readApiDocument } from "./changes.ts";
export type { Json, JsonObject } from "./json.ts";
export { higherLevel, LEVELS } from "./model.ts";
export type { ApiChange, Level } from "./model.ts";
export { compareTextRules, tokenize } from "./patterns.ts";
export type { TextRule } from "./patterns.ts";
export { RELEASED_SPEC_PATH, SPEC_PATH, writeReleasedSpec } from "./released-spec.ts";
