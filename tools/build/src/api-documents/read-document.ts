/**
 * Reads the OpenAPI documents of the server's own APIs (the admin API's and the watch page API's in
 * @org/webinar-server, the console API's in @org/webinar-console-contract) with the `yaml` package and lists
 * their operations: operationId, method, path, whether a body is required, and the request-body and JSON response
 * schemas with every local `$ref` inlined, so each operation's validator stands alone and ajv's error paths run
 * from the body's root (the server's body check relies on that to fold the errors inside a failed `oneOf` branch
 * into the `oneOf` error). It also collects each `pattern`'s `x-pattern-message` (pattern-messages.ts), the words
 * an answer uses instead of the regular expression.
 *
 * Shared by the generators (render-modules.ts) and the documents' tests, which compile the same schemas at run
 * time.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import Ajv2020, { type Options } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { GENERATED_VALIDATOR_OPTIONS } from "../ajv-options";
import { collectPatternMessages, PATTERN_MESSAGE_KEYWORD } from "../pattern-messages";

/** Where a document is: its name (the prefix of its generated exports) and its file. */
export interface DocumentSource {
  /** `admin`, `watch`, `console`: generated exports are `<name>Operations`, `<name>BodyValidators`, … */
  name: string;
  /** The document's file (an absolute path). */
  path: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "options", "head", "trace"]);

/** One operation of a document, as the server routes and validates it. */
export interface DocumentOperation {
  operationId: string;
  /** Upper case, e.g. `POST`. */
  method: string;
  /** The document's path template, e.g. `/admin/v1/merchants/{merchantId}/status`. */
  path: string;
  bodyRequired: boolean;
  /** The `application/json` request-body schema, self-contained (no `$ref`); absent for an operation without one. */
  bodySchema?: JsonObject;
  /**
   * The query parameters as one object schema (each parameter a string property, unknown ones rejected), so a
   * query is checked like a body; absent for an operation without query parameters.
   */
  querySchema?: JsonObject;
  /** HTTP status (`"200"`, `"401"`, ...) -> the `application/json` response schema, self-contained. */
  responseSchemas: Record<string, JsonObject>;
}

/** A parsed document: its name, file, text's SHA-256, operations in document order and pattern messages. */
export interface ApiDocument {
  name: string;
  /** The document's file name, e.g. `watch-openapi.yaml`. */
  file: string;
  sha256: string;
  document: JsonObject;
  operations: DocumentOperation[];
  /** Each `pattern` of the document's schemas -> its `x-pattern-message`. */
  patternMessages: Record<string, string>;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decodePointerToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

function lookUp(document: JsonObject, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`$ref ${ref}: only references inside the document are supported`);
  let node: Json | undefined = document;
  for (const token of ref.slice(2).split("/").map(decodePointerToken)) node = isObject(node) ? node[token] : undefined;
  if (node === undefined) throw new Error(`$ref ${ref} does not resolve`);
  return node;
}

/** A deep copy of `node` with each `$ref` replaced by its target; a reference cycle fails generation. */
function inlineRefs(document: JsonObject, node: Json, seen: readonly string[]): Json {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(document, item, seen));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === "string") {
    if (Object.keys(node).length > 1)
      throw new Error(`$ref ${ref} has sibling keywords; write them in the referenced schema`);
    if (seen.includes(ref)) throw new Error(`$ref cycle: ${[...seen, ref].join(" -> ")}`);
    return inlineRefs(document, lookUp(document, ref), [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlineRefs(document, value, seen)]));
}

/** The `application/json` schema of a request body or response object (already inlined), if it has one. */
function jsonSchemaOf(holder: Json | undefined): JsonObject | undefined {
  const media = isObject(holder) && isObject(holder.content) ? holder.content["application/json"] : undefined;
  return isObject(media) && isObject(media.schema) ? media.schema : undefined;
}

/** The object schema of an operation's `in: query` parameters (already inlined), if it has any. */
function querySchemaOf(operationId: string, parameters: Json): JsonObject | undefined {
  if (!Array.isArray(parameters)) return undefined;
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    if (!isObject(parameter) || parameter.in !== "query") continue;
    if (typeof parameter.name !== "string" || !isObject(parameter.schema))
      throw new Error(`${operationId}: a query parameter without a name or schema`);
    properties[parameter.name] = parameter.schema;
    if (parameter.required === true) required.push(parameter.name);
  }
  if (Object.keys(properties).length === 0) return undefined;
  return { type: "object", additionalProperties: false, required, properties };
}

function readOperation(document: JsonObject, method: string, path: string, operation: Json): DocumentOperation {
  if (!isObject(operation) || typeof operation.operationId !== "string")
    throw new Error(`${method} ${path}: no operationId`);
  const { operationId } = operation;
  const requestBody = inlineRefs(document, operation.requestBody ?? null, []);
  const bodySchema = jsonSchemaOf(requestBody);
  if (isObject(requestBody) && bodySchema === undefined)
    throw new Error(`${operationId}: the request body has no application/json schema`);
  const querySchema = querySchemaOf(operationId, inlineRefs(document, operation.parameters ?? null, []));
  const responses = inlineRefs(document, operation.responses ?? null, []);
  if (!isObject(responses)) throw new Error(`${operationId}: no responses`);
  const responseSchemas: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(responses)) {
    const schema = jsonSchemaOf(response);
    if (schema !== undefined) responseSchemas[status] = schema;
  }
  return {
    operationId,
    method: method.toUpperCase(),
    path,
    bodyRequired: isObject(requestBody) && requestBody.required === true,
    ...(bodySchema === undefined ? {} : { bodySchema }),
    ...(querySchema === undefined ? {} : { querySchema }),
    responseSchemas,
  };
}

/** Parses a document's text into its operations. */
export function readApiDocument(source: DocumentSource, text: string): ApiDocument {
  const { name } = source;
  const file = basename(source.path);
  const document = parse(text) as Json;
  if (!isObject(document) || !isObject(document.paths)) throw new Error(`${file} has no paths`);
  const operations: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) throw new Error(`${file} ${path}: not a path item`);
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.has(method)) operations.push(readOperation(document, method, path, operation));
    }
  }
  return {
    name,
    file,
    sha256: createHash("sha256").update(text).digest("hex"),
    document,
    operations,
    patternMessages: collectPatternMessages(document.components, "#/components"),
  };
}

/** Reads and parses a document from disk. */
export function loadApiDocument(source: DocumentSource): ApiDocument {
  return readApiDocument(source, readFileSync(source.path, "utf8"));
}

/**
 * An ajv instance with the semantics of every generated validator (ajv-options.ts); `source: true` options
 * keep code for standalone. ajv-formats is not registered: no schema here uses `format`, so a `format` added later
 * fails generation loudly instead of shipping a validator that needs a runtime dependency the server does not
 * declare.
 */
export function createDocumentAjv(extra: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...GENERATED_VALIDATOR_OPTIONS, ...extra });
  // Words for a pattern's errors: read by collectPatternMessages, nothing to check.
  ajv.addKeyword({ keyword: PATTERN_MESSAGE_KEYWORD, schemaType: "string" });
  return ajv;
}
