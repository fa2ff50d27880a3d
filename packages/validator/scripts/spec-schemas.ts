/**
 * Reads spec/openapi.yaml and turns it into the JSON Schemas ajv compiles: every component schema under one
 * `$id` (OpenAPI's `#/components/schemas/X` references rewritten to `#/$defs/X`), each operation's request and
 * success schema, and each error response's envelope with `error.code` narrowed to its `x-error-codes`.
 *
 * Shared by the generator (scripts/generate.ts, ajv standalone output) and the tests that compile the same
 * schemas at run time to prove the checked-in code still agrees with the spec.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020, { type Options } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { GENERATED_VALIDATOR_OPTIONS } from "@org/webinar-build/ajv-options";
import { collectPatternMessages, PATTERN_MESSAGE_KEYWORD } from "@org/webinar-build/pattern-messages";

export const specFile = fileURLToPath(new URL("../../../spec/openapi.yaml", import.meta.url));

/** `$id` of the document holding every component schema as `$defs`. */
export const COMPONENTS_ID = "urn:webinar-open-api:components";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Operation {
  operationId: string;
  requestBody: { content: { "application/json": { schema: JsonObject } } };
  responses: Record<string, JsonObject>;
}

interface SpecDocument {
  "x-limits": Record<string, number>;
  paths: Record<string, { post: Operation }>;
  components: { schemas: Record<string, JsonObject>; responses: Record<string, JsonObject> };
}

/** The options of every generated validator (@org/webinar-build/ajv-options), with ajv's messages kept for the details. */
export const ajvOptions = { ...GENERATED_VALIDATOR_OPTIONS, messages: true } as const satisfies Options;

/**
 * Vendor keywords the schemas carry. `x-error-code` maps errors to a code; `x-pattern-message` says in words what
 * a `pattern` asks for (the `message` of its `details.errors` entry); the others only document.
 */
export const ERROR_CODE_KEYWORD = "x-error-code";
/** Beside a text pattern: lone surrogates are refused too (compiled into the pattern, see `compiledPattern`). */
export const NO_LONE_SURROGATES_KEYWORD = "x-no-lone-surrogates";
const DOCUMENTATION_KEYWORDS = ["x-enumDescriptions", "x-httpStatus", "x-retry"] as const;
/**
 * Integer formats are annotations for code generators that pick an integer type by them: the range of every
 * integer is its `minimum` and `maximum`, so a value out of range gets one error (the bound's), not two.
 */
const ANNOTATION_FORMATS = ["int32", "int64"] as const;

export interface LoadedSpec {
  text: string;
  sha256: string;
  document: SpecDocument;
}

export function loadSpec(file: string = specFile): LoadedSpec {
  const text = readFileSync(file, "utf8");
  return { text, sha256: createHash("sha256").update(text).digest("hex"), document: parse(text) as SpecDocument };
}

const COMPONENT_REF = "#/components/schemas/";
/** The one pattern shape that `x-no-lone-surrogates` may sit beside: a negated class over the whole string. */
const TEXT_PATTERN = /^\^\[\^(.+)\]\*\$$/s;

/**
 * The pattern the validators compile for a schema. The spec's patterns are portable (no `\p{...}`), so the rule
 * no portable pattern can say, no lone surrogate, sits beside the pattern as `x-no-lone-surrogates: true`. The
 * validators compile patterns with the `u` flag, in which `\p{Cs}` matches exactly a lone surrogate: added to the
 * pattern's negated class, it makes one pattern of both rules, so such a value gets one `pattern` error with the
 * pattern's message, as any other forbidden character does.
 */
export function compiledPattern(schema: JsonObject): Json | undefined {
  if (schema[NO_LONE_SURROGATES_KEYWORD] !== true) return schema.pattern;
  const match = typeof schema.pattern === "string" ? TEXT_PATTERN.exec(schema.pattern) : null;
  if (match === null)
    throw new Error(
      `${NO_LONE_SURROGATES_KEYWORD} needs a pattern of the form ^[^...]*$, got ${String(schema.pattern)}`,
    );
  return `^[^${match[1]}\\p{Cs}]*$`;
}

/**
 * Deep copy with every `#/components/schemas/X` reference pointed at `COMPONENTS_ID#/$defs/X`, and each pattern
 * as the validators compile it (`compiledPattern`).
 */
function rewriteRefs(node: Json): Json {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== "object") return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "pattern") {
      copy[key] = compiledPattern(node) ?? value;
    } else if (key === "$ref" && typeof value === "string") {
      if (!value.startsWith(COMPONENT_REF))
        throw new Error(`unsupported $ref ${value}: only ${COMPONENT_REF}* is resolved`);
      copy[key] = `${COMPONENTS_ID}#/$defs/${value.slice(COMPONENT_REF.length)}`;
    } else {
      copy[key] = rewriteRefs(value);
    }
  }
  return copy;
}

function componentName(ref: Json | undefined, where: string): string {
  if (typeof ref !== "string" || !ref.startsWith(COMPONENT_REF))
    throw new Error(`${where}: expected a $ref to ${COMPONENT_REF}*`);
  return ref.slice(COMPONENT_REF.length);
}

/** One schema the generated module exports, by export name. */
export interface ExportedSchema {
  exportName: string;
  /** What ajv's `getSchema` resolves: a `$defs` pointer or the `$id` of a schema added here. */
  ref: string;
}

export interface OperationSchemas {
  operationId: string;
  path: string;
  request: ExportedSchema;
  /** Instance pointer of a request property -> the error code its own constraints answer (`x-error-code`). */
  errorCodeOverrides: Record<string, string>;
  /** HTTP status (as in the spec, e.g. "200", "409") -> the response body schema. */
  responses: Record<string, ExportedSchema>;
}

export interface SpecSchemas {
  spec: LoadedSpec;
  operations: OperationSchemas[];
  /** The schemas to add to ajv: one document with every component and every narrowed error envelope as `$defs`. */
  schemas: JsonObject[];
  /** Each pattern the validators compile (`compiledPattern`) -> its `x-pattern-message`. */
  patternMessages: Record<string, string>;
}

function resolveResponse(document: SpecDocument, response: JsonObject): JsonObject {
  const ref = response.$ref;
  if (ref === undefined) return response;
  const prefix = "#/components/responses/";
  if (typeof ref !== "string" || !ref.startsWith(prefix)) throw new Error(`unsupported response $ref ${String(ref)}`);
  const target = document.components.responses[ref.slice(prefix.length)];
  if (!target) throw new Error(`unresolved response ${ref}`);
  return target;
}

function jsonSchemaOf(response: JsonObject, where: string): JsonObject {
  const content = response.content as { "application/json"?: { schema?: JsonObject } } | undefined;
  const schema = content?.["application/json"]?.schema;
  if (!schema) throw new Error(`${where} has no application/json schema`);
  return schema;
}

/** Walks an object schema's properties (following component refs) and collects `x-error-code` by instance pointer. */
function collectErrorCodes(
  document: SpecDocument,
  schema: JsonObject,
  pointer: string,
  found: Record<string, string>,
): void {
  const target =
    typeof schema.$ref === "string" ? document.components.schemas[componentName(schema.$ref, pointer)] : schema;
  if (!target) throw new Error(`unresolved ${String(schema.$ref)}`);
  const code = target[ERROR_CODE_KEYWORD];
  if (typeof code === "string") found[pointer] = code;
  const properties = target.properties;
  if (properties && typeof properties === "object" && !Array.isArray(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      const escaped = name.replaceAll("~", "~0").replaceAll("/", "~1");
      collectErrorCodes(document, property as JsonObject, `${pointer}/${escaped}`, found);
    }
  }
}

/** Builds every schema the validators are generated from. */
export function buildSpecSchemas(spec: LoadedSpec = loadSpec()): SpecSchemas {
  const { document } = spec;
  const defs: JsonObject = {};
  for (const [name, schema] of Object.entries(document.components.schemas)) defs[name] = rewriteRefs(schema);
  const schemas: JsonObject[] = [{ $id: COMPONENTS_ID, $defs: defs }];
  const operations: OperationSchemas[] = [];

  for (const [path, item] of Object.entries(document.paths)) {
    const operation = item.post;
    const { operationId } = operation;
    const requestSchema = operation.requestBody.content["application/json"].schema;
    const requestName = componentName(requestSchema.$ref, `${operationId} request`);
    const errorCodeOverrides: Record<string, string> = {};
    collectErrorCodes(document, requestSchema, "", errorCodeOverrides);

    const responses: Record<string, ExportedSchema> = {};
    for (const [status, reference] of Object.entries(operation.responses)) {
      const response = resolveResponse(document, reference);
      const exportName = `response_${operationId}_${status}`;
      const schema = jsonSchemaOf(response, `${operationId} ${status}`);
      if (status.startsWith("2")) {
        responses[status] = {
          exportName,
          ref: `${COMPONENTS_ID}#/$defs/${componentName(schema.$ref, `${operationId} ${status}`)}`,
        };
        continue;
      }
      const codes = response["x-error-codes"];
      if (!Array.isArray(codes) || codes.length === 0) throw new Error(`${operationId} ${status} lacks x-error-codes`);
      // The shared envelope, with error.code narrowed to the codes this status may carry for this operation. It
      // lives beside the components (same root), so every error validator shares one compiled ErrorEnvelope.
      const name = `ErrorResponse_${operationId}_${status}`;
      if (defs[name] !== undefined) throw new Error(`schema name ${name} is taken in the spec`);
      defs[name] = {
        type: "object",
        allOf: [{ $ref: `${COMPONENTS_ID}#/$defs/${componentName(schema.$ref, `${operationId} ${status}`)}` }],
        properties: { error: { type: "object", properties: { code: { enum: codes } } } },
      };
      responses[status] = { exportName, ref: `${COMPONENTS_ID}#/$defs/${name}` };
    }
    operations.push({
      operationId,
      path,
      request: { exportName: `request_${operationId}`, ref: `${COMPONENTS_ID}#/$defs/${requestName}` },
      errorCodeOverrides,
      responses,
    });
  }
  const patternMessages = collectPatternMessages(document.components.schemas, "#/components/schemas", (schema) =>
    compiledPattern(schema as JsonObject),
  );
  return { spec, operations, schemas, patternMessages };
}

/**
 * An ajv instance configured like the generated validators, with the spec's schemas added. `source: true`
 * keeps the generated code for `standaloneCode`; tests leave it off and compile in memory.
 */
export function createSpecAjv(specSchemas: SpecSchemas, extra: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...ajvOptions, ...extra });
  addFormats(ajv);
  const errorCodes = (specSchemas.spec.document.components.schemas.ErrorCode as { enum: string[] }).enum;
  // Registered so strict mode accepts it; its meta-schema makes a misspelt code in the spec fail generation.
  ajv.addKeyword({ keyword: ERROR_CODE_KEYWORD, schemaType: "string", metaSchema: { enum: errorCodes } });
  ajv.addKeyword({ keyword: PATTERN_MESSAGE_KEYWORD, schemaType: "string" });
  ajv.addKeyword({ keyword: NO_LONE_SURROGATES_KEYWORD, schemaType: "boolean" });
  for (const format of ANNOTATION_FORMATS) ajv.addFormat(format, true);
  for (const keyword of DOCUMENTATION_KEYWORDS) ajv.addKeyword({ keyword, schemaType: "object" });
  for (const schema of specSchemas.schemas) ajv.addSchema(schema);
  return ajv;
}
