/**
 * Walks two OpenAPI documents side by side, the spec of the last release and the current one: the document's own
 * parts (limits, security, documentation), then every operation, matched by method and path, down to the
 * schemas of its request and response bodies (schemas.ts). The result is the list of raw findings.
 */
import {
  asObject,
  follow,
  isObject,
  type Json,
  type JsonObject,
  keysOfEither,
  pointerToken,
  sameJson,
} from "./json.ts";
import type { Direction, Finding, Place } from "./model.ts";
import {
  compareSchemas,
  DOCUMENTATION_KEYWORDS,
  DOCUMENTATION_ONLY,
  note,
  type SchemaSite,
  type Walk,
} from "./schemas.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Document parts that only document. */
const DOCUMENT_DOCUMENTATION = ["info", "servers", "tags", "x-tagGroups", "externalDocs", "openapi"];
/** Parts of the document reached through the operations, or compared on their own below. */
const DOCUMENT_WALKED = ["paths", "components", "x-limits", "security"];
const OPERATION_WALKED = ["operationId", "requestBody", "responses", "tags", ...DOCUMENTATION_KEYWORDS];

/** The document without `info.version`, which says how the document changed rather than being a change. */
const withoutVersion = (document: JsonObject): JsonObject => ({
  ...document,
  info: { ...asObject(document.info), version: null },
});

type Operation = { key: string; pointer: string; operation: JsonObject };

/** Every operation of a document by `METHOD path`. */
function operationsOf(document: JsonObject): Map<string, Operation> {
  const found = new Map<string, Operation>();
  for (const [path, item] of Object.entries(asObject(document.paths)))
    for (const method of METHODS.filter((name) => isObject(asObject(item)[name])))
      found.set(`${method.toUpperCase()} ${path}`, {
        key: `${method.toUpperCase()} ${path}`,
        pointer: `#/paths/${pointerToken(path)}/${method}`,
        operation: asObject(asObject(item)[method]),
      });
  return found;
}

const nameOf = (entry: Operation) =>
  typeof entry.operation.operationId === "string" ? entry.operation.operationId : entry.key;

/** A response, request body or example with its `$ref` followed. */
const resolved = (document: JsonObject, node: Json | undefined): JsonObject =>
  isObject(node) && typeof node.$ref === "string" ? asObject(follow(document, node.$ref)) : asObject(node);

/** One side of a body (request body or response): the object, and where it is defined. */
interface Body {
  body: JsonObject;
  pointer: string;
}

const MEDIA_TYPE_WORDS = {
  request: { narrowed: "no longer accepts", widened: "now accepts" },
  response: { narrowed: "no longer returns", widened: "may now return" },
} as const;

/** Compares the schema of each media type two bodies share; media types added or removed are findings of their own. */
function compareContent(walk: Walk, before: Body, after: Body, place: Place & { direction: Direction }) {
  const was = asObject(before.body.content);
  const is = asObject(after.body.content);
  for (const mediaType of keysOfEither(was, is)) {
    const suffix = `/content/${pointerToken(mediaType)}/schema`;
    const site: SchemaSite = {
      place,
      beforeDefinition: `${before.pointer}${suffix}`,
      afterDefinition: `${after.pointer}${suffix}`,
    };
    const words = MEDIA_TYPE_WORDS[place.direction];
    if (!(mediaType in is)) note(walk, site, "media-type", `${words.narrowed} ${mediaType}`, "narrowed");
    else if (!(mediaType in was)) note(walk, site, "media-type", `${words.widened} ${mediaType}`, "widened");
    else {
      const left = asObject(was[mediaType]);
      const right = asObject(is[mediaType]);
      compareSchemas(walk, left.schema, right.schema, site);
      if (!sameJson(left.example, right.example) || !sameJson(left.examples, right.examples))
        note(walk, site, "documentation", "examples changed", DOCUMENTATION_ONLY);
    }
  }
}

/** The error codes a response may carry (`x-error-codes`): a new one is a value clients may not handle. */
function compareErrorCodes(walk: Walk, before: JsonObject, after: JsonObject, site: SchemaSite) {
  const codes = (response: JsonObject) => (Array.isArray(response["x-error-codes"]) ? response["x-error-codes"] : []);
  const was = codes(before);
  const is = codes(after);
  for (const code of was.filter((old) => !is.includes(old)))
    note(walk, site, "error-code-removed", `no longer answers \`${String(code)}\``, "narrowed");
  for (const code of is.filter((now) => !was.includes(now)))
    note(walk, site, "error-code-added", `may answer the new error code \`${String(code)}\``, "widened");
}

/** Where a response is defined: its component when it is a `$ref`, else its place in the operation. */
function responsePointer(entry: Operation, status: string): string {
  const node = asObject(entry.operation.responses)[status];
  return isObject(node) && typeof node.$ref === "string"
    ? node.$ref
    : `${entry.pointer}/responses/${pointerToken(status)}`;
}

function compareResponses(walk: Walk, before: Operation, after: Operation, operationId: string) {
  const was = asObject(before.operation.responses);
  const is = asObject(after.operation.responses);
  for (const status of keysOfEither(was, is)) {
    const place = { operation: operationId, direction: "response" as const, status, field: "" };
    const left: Body = { body: resolved(walk.before, was[status]), pointer: responsePointer(before, status) };
    const right: Body = { body: resolved(walk.after, is[status]), pointer: responsePointer(after, status) };
    const site: SchemaSite = { place, beforeDefinition: left.pointer, afterDefinition: right.pointer };
    if (!(status in is)) {
      // A success answer removed breaks every client; an error answer removed is one case fewer to handle.
      const judged = status.startsWith("2") ? ({ clients: "breaking", servers: "compatible" } as const) : "narrowed";
      note(walk, site, "response-removed", `no longer answers ${status}`, judged);
    } else if (!(status in was)) {
      note(walk, site, "response-added", `may answer the new status ${status}`, "widened");
    } else {
      compareErrorCodes(walk, left.body, right.body, site);
      compareContent(walk, left, right, place);
      if (!sameJson(left.body.headers, right.body.headers))
        note(walk, site, "headers", "response headers changed", "changed");
      if (!sameJson(left.body.description, right.body.description))
        note(walk, site, "documentation", "description changed", DOCUMENTATION_ONLY);
    }
  }
}

function compareRequestBody(walk: Walk, before: Operation, after: Operation, operationId: string) {
  const place = { operation: operationId, direction: "request" as const, field: "" };
  const was: Body = {
    body: resolved(walk.before, before.operation.requestBody),
    pointer: `${before.pointer}/requestBody`,
  };
  const is: Body = { body: resolved(walk.after, after.operation.requestBody), pointer: `${after.pointer}/requestBody` };
  if (was.body.required !== is.body.required) {
    const required = is.body.required === true;
    const site = { place, afterDefinition: is.pointer };
    const what = required ? "the body is now required" : "the body is now optional";
    note(walk, site, "request-body", what, required ? "narrowed" : "widened");
  }
  compareContent(walk, was, is, place);
}

function compareOperation(walk: Walk, before: Operation, after: Operation) {
  const operationId = nameOf(after);
  const site = { place: { operation: operationId, field: "" }, afterDefinition: after.pointer };
  if (nameOf(before) !== operationId)
    note(
      walk,
      site,
      "operation-id",
      `operationId \`${nameOf(before)}\` → \`${operationId}\` (generated clients rename the call)`,
      { clients: "breaking", servers: "compatible" },
    );
  compareRequestBody(walk, before, after, operationId);
  compareResponses(walk, before, after, operationId);
  if (["tags", ...DOCUMENTATION_KEYWORDS].some((key) => !sameJson(before.operation[key], after.operation[key])))
    note(walk, site, "documentation", "summary, description, tags or code samples changed", DOCUMENTATION_ONLY);
  for (const key of keysOfEither(before.operation, after.operation).filter((name) => !OPERATION_WALKED.includes(name)))
    if (!sameJson(before.operation[key], after.operation[key]))
      note(walk, site, "operation", `\`${key}\` changed`, { clients: "breaking", servers: "breaking" });
}

/** `x-limits`: a limit whose name has `Min` is a lower bound, `Example` only illustrates, any other is an upper bound. */
function compareLimits(walk: Walk) {
  const was = asObject(walk.before["x-limits"]);
  const is = asObject(walk.after["x-limits"]);
  for (const name of keysOfEither(was, is).filter((key) => !sameJson(was[key], is[key]))) {
    const site = {
      place: { operation: "", direction: "request" as const, field: "" },
      afterDefinition: `#/x-limits/${name}`,
    };
    const what = `limit \`${name}\` ${String(was[name] ?? "none")} → ${String(is[name] ?? "none")}`;
    if (name.includes("Example")) note(walk, site, "documentation", what, DOCUMENTATION_ONLY);
    else {
      const lower = name.includes("Min");
      const before = was[name];
      const after = is[name];
      const narrowed = typeof before !== "number" || (typeof after === "number" && after > before === lower);
      note(walk, site, "limit", what, narrowed ? "narrowed" : "widened");
    }
  }
}

function compareDocument(walk: Walk) {
  const site = { place: { operation: "", field: "" }, afterDefinition: "#" };
  const { before, after } = walk;
  compareLimits(walk);
  const documentation = DOCUMENT_DOCUMENTATION.filter((key) => key !== "info");
  if (
    !sameJson(withoutVersion(before).info, withoutVersion(after).info) ||
    documentation.some((key) => !sameJson(before[key], after[key]))
  )
    note(walk, site, "documentation", "the document's descriptions, guides or servers changed", DOCUMENTATION_ONLY);
  const schemes = (document: JsonObject) => asObject(asObject(document.components).securitySchemes);
  if (!sameJson(before.security, after.security) || !sameJson(schemes(before), schemes(after)))
    note(walk, site, "security", "security requirements or schemes changed", {
      clients: "breaking",
      servers: "breaking",
    });
  for (const key of keysOfEither(before, after))
    if (![...DOCUMENT_DOCUMENTATION, ...DOCUMENT_WALKED].includes(key) && !sameJson(before[key], after[key]))
      note(walk, site, "document", `\`${key}\` changed`, { clients: "breaking", servers: "breaking" });
}

/** Every difference between the release's spec (`before`) and the current one (`after`), as raw findings. */
export function findDifferences(before: JsonObject, after: JsonObject): Finding[] {
  const walk: Walk = { before, after, findings: [], active: new Set() };
  compareDocument(walk);
  const was = operationsOf(before);
  const is = operationsOf(after);
  for (const key of new Set([...was.keys(), ...is.keys()])) {
    const left = was.get(key);
    const right = is.get(key);
    if (left !== undefined && right !== undefined) compareOperation(walk, left, right);
    else {
      const entry = (left ?? right)!;
      const site = { place: { operation: nameOf(entry), field: "" }, afterDefinition: entry.pointer };
      if (right === undefined)
        note(walk, site, "operation-removed", `operation removed (${key})`, {
          clients: "breaking",
          servers: "compatible",
        });
      else
        note(walk, site, "operation-added", `new operation (${key})`, { clients: "compatible", servers: "breaking" });
    }
  }
  // Edits the walk does not reach (an example component, say) still make a release: documentation at least.
  if (walk.findings.length === 0 && !sameJson(withoutVersion(before), withoutVersion(after)))
    note(
      walk,
      { place: { operation: "", field: "" }, afterDefinition: "#" },
      "documentation",
      "other parts of the document changed",
      DOCUMENTATION_ONLY,
    );
  return walk.findings;
}
