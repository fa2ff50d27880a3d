/**
 * The facts of the console API's schemas the console app's forms and pages need as values, not types: the limits
 * the forms check before sending (password length, roll grace, viewers page size and id filters) and the enums the
 * pages offer as choices (modes, sorts, statuses), read from the document's schemas so none is restated by hand.
 * Generation fails when the document no longer states one of them.
 */
export type Schema = {
  minLength?: number;
  maximum?: number;
  maxItems?: number;
  enum?: unknown[];
  properties?: Record<string, Schema>;
};

/** The values of an enum the document must state; generation fails when it no longer has them. */
function values(schema: Schema | undefined, where: string): string[] {
  if (!Array.isArray(schema?.enum)) throw new Error(`console-openapi.yaml: ${where} has no enum`);
  return schema.enum.filter((value): value is string => typeof value === "string");
}

/** A number a schema must state; generation fails when the document no longer has it. */
function limit(value: number | undefined, where: string): number {
  if (typeof value !== "number") throw new Error(`console-openapi.yaml: ${where} is not a number`);
  return value;
}

/** `console-schema.gen.ts` without its banner: `consoleLimits` and `consoleEnums`. */
export function renderSchemaFacts(schemas: Record<string, Schema>): string {
  const query = schemas.QueryViewersRequest?.properties ?? {};
  const limits = {
    passwordMinLength: limit(schemas.Password?.minLength, "Password.minLength"),
    rollGraceMaxSeconds: limit(schemas.RollApiKeyRequest?.properties?.graceSeconds?.maximum, "graceSeconds.maximum"),
    viewersPageSizeMax: limit(query.pageSize?.maximum, "QueryViewersRequest.pageSize.maximum"),
    viewersIdsMax: limit(query.uids?.maxItems, "QueryViewersRequest.uids.maxItems"),
  };
  const enums = {
    modes: values(schemas.Mode, "Mode"),
    sorts: values(query.sort, "QueryViewersRequest.sort"),
    webinarStatuses: values(schemas.WebinarStatus, "WebinarStatus"),
    dataStates: values(schemas.DataState, "DataState"),
  };
  return (
    `/** Limits of the console API's requests, from its document's schemas. */\nexport const consoleLimits = ${JSON.stringify(limits, null, 2)} as const;\n\n` +
    `/** Enums of the console API's document, in its order. */\nexport const consoleEnums = ${JSON.stringify(enums, null, 2)} as const;\n`
  );
}
