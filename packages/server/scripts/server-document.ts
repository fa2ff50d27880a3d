/**
 * Reads admin-openapi.yaml (with the `yaml` package) and lists its operations: operationId, method, path,
 * whether a body is required, and the request-body schema with every local `$ref` inlined, so each operation's
 * validator stands alone and ajv's error paths run from the body's root (body-check.ts relies on that to fold
 * the errors inside a failed `oneOf` branch into the `oneOf` error).
 *
 * Shared by the generator (generate-admin-validators.ts) and test/admin-document.test.ts, which compiles the
 * same schemas at run time.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020, { type Options } from "ajv/dist/2020.js";
import { parse } from "yaml";

/** The admin document's path in this package. */
export const ADMIN_DOCUMENT = fileURLToPath(new URL("../admin-openapi.yaml", import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "options", "head", "trace"]);

/** One admin operation as the server routes and validates it. */
export interface AdminOperation {
  operationId: string;
  /** Upper case, e.g. `POST`. */
  method: string;
  /** The document's path template, e.g. `/admin/v1/merchants/{merchantId}/status`. */
  path: string;
  bodyRequired: boolean;
  /** The `application/json` request-body schema, self-contained (no `$ref`). */
  bodySchema: JsonObject;
}

/** The parsed document, its text's SHA-256 and its operations in document order. */
export interface AdminDocument {
  sha256: string;
  document: JsonObject;
  operations: AdminOperation[];
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decodePointerToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

function lookUp(document: JsonObject, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`$ref ${ref}: only references inside admin-openapi.yaml are supported`);
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

/** Parses admin-openapi.yaml text into its operations. */
export function readAdminDocument(text: string): AdminDocument {
  const document = parse(text) as Json;
  if (!isObject(document) || !isObject(document.paths)) throw new Error("admin-openapi.yaml has no paths");
  const operations: AdminOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isObject(item)) throw new Error(`${path}: not a path item`);
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      if (!isObject(operation) || typeof operation.operationId !== "string")
        throw new Error(`${method} ${path}: no operationId`);
      const { operationId, requestBody } = operation;
      if (!isObject(requestBody)) throw new Error(`${operationId}: no requestBody`);
      const media = isObject(requestBody.content) ? requestBody.content["application/json"] : undefined;
      if (!isObject(media) || !isObject(media.schema))
        throw new Error(`${operationId}: no application/json request-body schema`);
      const bodySchema = inlineRefs(document, media.schema, []);
      if (!isObject(bodySchema)) throw new Error(`${operationId}: the request-body schema is not an object`);
      operations.push({
        operationId,
        method: method.toUpperCase(),
        path,
        bodyRequired: requestBody.required === true,
        bodySchema,
      });
    }
  }
  return { sha256: createHash("sha256").update(text).digest("hex"), document, operations };
}

/** Reads and parses admin-openapi.yaml from disk. */
export function loadAdminDocument(file: string = ADMIN_DOCUMENT): AdminDocument {
  return readAdminDocument(readFileSync(file, "utf8"));
}

/**
 * The Open API validator's semantics (CONTRIBUTING.md): 2020-12, strict (an unknown keyword or format fails
 * generation), every error reported, no coercion, nothing removed or defaulted, patterns with the `u` flag.
 * ajv-formats is not registered: no admin schema uses `format`, so a `format` added later fails generation
 * loudly instead of shipping a validator that needs a runtime dependency the server does not declare.
 */
const adminAjvOptions: Options = {
  strict: true,
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  unicodeRegExp: true,
};

/** An ajv instance configured like the generated validators; `source: true` options keep code for standalone. */
export function createAdminAjv(extra: Options = {}): Ajv2020 {
  return new Ajv2020({ ...adminAjvOptions, ...extra });
}
