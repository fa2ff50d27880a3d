/**
 * Generates the precompiled validators from spec/openapi.yaml with ajv standalone, one validator per request body
 * and per response body, so nothing is compiled, eval'd or `new Function`'d at run time. They go into two
 * modules: src/request-validators.gen.js, which the verification pipeline loads, and
 * src/response-validators.gen.js, four fifths of the code, which only contract tests load
 * (`@org/webinar-validator/contract`), so a server never pays for parsing them.
 *
 * ajv's standalone output `require()`s two runtime helpers even in ESM mode. The code-point length helper is
 * inlined (ajv itself stays a build-time dependency); formats become stand-ins that load ajv-formats, the
 * package's one runtime dependency, through `createRequire` on first use (loading it eagerly from ESM costs
 * more than the validators themselves). Each result is an ES module that tsup bundles into both the ESM and
 * the CommonJS build. Any other `require()` fails the generation rather than ship a broken module.
 */
import standaloneCode from "ajv/dist/standalone/index.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { buildSpecSchemas, createSpecAjv } from "./spec-schemas";

/** A generated module and its declarations, as text. */
export interface RenderedModule {
  module: string;
  declarations: string;
}

/** Both generated modules. */
export interface RenderedValidators {
  requests: RenderedModule;
  responses: RenderedModule;
  validatorCount: number;
  specSha256: string;
}

const FORMATS_HELPER = `let formatTable;
/**
 * ajv-formats' format table, loaded on first use, so a runtime without node:module can still load this file as
 * long as no format is checked.
 */
function formats() {
  if (formatTable === undefined) {
    const { createRequire } = process.getBuiltinModule("node:module");
    formatTable = createRequire(import.meta.url)("ajv-formats/dist/formats.js").fullFormats;
  }
  return formatTable;
}
`;

const UCS2LENGTH_HELPER = `/** Length in Unicode code points, as JSON Schema counts it (ajv's runtime helper, inlined). */
function ucs2length(str) {
  const len = str.length;
  let length = 0;
  let pos = 0;
  let value;
  while (pos < len) {
    length++;
    value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      value = str.charCodeAt(pos);
      if ((value & 0xfc00) === 0xdc00) pos++;
    }
  }
  return length;
}
`;

const VALIDATOR_TYPES = `/** An error as ajv reports it. */
export interface GeneratedValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A precompiled ajv validator: returns whether \`data\` is valid and leaves the errors on \`errors\`. */
export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: GeneratedValidationError[] | null;
}
`;

/** ajv standalone code for `exports` (export name -> schema ref), with its runtime `require()`s replaced. */
function standaloneModuleCode(ajv: Parameters<typeof standaloneCode>[0], exports: Record<string, string>): string {
  let code = standaloneCode(ajv, exports);
  code = code.replaceAll('require("ajv/dist/runtime/ucs2length").default', "ucs2length");
  // A format used by a schema becomes a stand-in of the same shape (ajv emits \`f(x)\`, \`f.test(x)\` or
  // \`f.validate(x)\` depending on the definition) that loads ajv-formats on its first call.
  code = code.replace(/require\("ajv-formats\/dist\/formats"\)\.fullFormats(?:\.([\w$]+)|\["([^"]+)"\])/g, (_match, dotted, quoted) => {
    const name = (dotted ?? quoted) as string;
    const definition: unknown = (fullFormats as Record<string, unknown>)[name];
    const at = `formats()[${JSON.stringify(name)}]`;
    if (definition instanceof RegExp) return `{ test: (value) => ${at}.test(value) }`;
    if (typeof definition === "function") return `(value) => ${at}(value)`;
    if (typeof definition === "object" && definition !== null && typeof (definition as { validate?: unknown }).validate === "function") {
      return `{ validate: (value) => ${at}.validate(value) }`;
    }
    throw new Error(`format ${name}: unsupported definition in ajv-formats`);
  });
  const leftover = code.match(/require\([^)]*\)/g);
  if (leftover) throw new Error(`unexpected runtime require in ajv output: ${leftover.join(", ")}`);
  if (/\bnew Function\b|\beval\s*\(/.test(code)) throw new Error("ajv output contains new Function or eval");
  code = code.replace(/^"use strict";\s*/, "");
  // Only the helpers the code uses, so the request module carries no format loader.
  const helpers = [code.includes("formats()") ? FORMATS_HELPER : "", /\bucs2length\b/.test(code) ? UCS2LENGTH_HELPER : ""].filter(Boolean);
  return `${helpers.join("\n")}\n${code}`;
}

/** Renders both generated modules and their declarations from the spec without writing them. */
export function renderValidators(): RenderedValidators {
  const specSchemas = buildSpecSchemas();
  const { spec, operations } = specSchemas;
  const ajv = createSpecAjv(specSchemas, { code: { source: true, esm: true, lines: true } });

  const requestExports: Record<string, string> = {};
  const responseExports: Record<string, string> = {};
  for (const operation of operations) {
    requestExports[operation.request.exportName] = operation.request.ref;
    for (const response of Object.values(operation.responses)) responseExports[response.exportName] = response.ref;
  }

  const table = (entries: Array<[string, string]>, indent: string) =>
    entries.map(([key, value]) => `${indent}${JSON.stringify(key)}: ${value},`).join("\n");

  const requestTable = table(operations.map((operation) => [operation.operationId, operation.request.exportName]), "  ");
  const responseTable = operations
    .map((operation) => {
      const statuses = table(Object.entries(operation.responses).map(([status, schema]) => [status, schema.exportName]), "    ");
      return `  ${JSON.stringify(operation.operationId)}: {\n${statuses}\n  },`;
    })
    .join("\n");
  const overrides = JSON.stringify(Object.fromEntries(operations.map((operation) => [operation.operationId, operation.errorCodeOverrides])), null, 2);

  const banner =
    `// Generated by packages/validator/scripts/generate.ts (ajv standalone) from spec/openapi.yaml.\n` +
    `// spec sha256: ${spec.sha256}\n` +
    `// Do not edit: change the spec and run \`pnpm generate\`.\n`;
  const specHashDoc = "/** SHA-256 of the spec/openapi.yaml these validators were generated from. */";
  const operationIds = operations.map((operation) => JSON.stringify(operation.operationId)).join(" | ");
  const responseShape = operations
    .map((operation) => `  readonly ${operation.operationId}: { readonly [status in ${Object.keys(operation.responses).map((status) => JSON.stringify(status)).join(" | ")}]: GeneratedValidator };`)
    .join("\n");

  /** One generated module: ajv's code for `exports`, the spec's hash, then `tail` (its tables). */
  const moduleText = (exports: Record<string, string>, tail: string) =>
    `${banner}/* eslint-disable */\n${standaloneModuleCode(ajv, exports)}\n\n${specHashDoc}\nexport const specSha256 = ${JSON.stringify(spec.sha256)};\n\n${tail}`;
  /** Its declarations: the spec's hash, then `tail`. */
  const declarationsText = (head: string, tail: string) => `${banner}\n${head}\n${specHashDoc}\nexport declare const specSha256: string;\n\n${tail}`;

  const requests: RenderedModule = {
    module: moduleText(
      requestExports,
      `/** Request-body validator of each operation. */
export const requestValidators = {
${requestTable}
};

/** Per operation: request property (JSON pointer) -> the code its own constraints answer (x-error-code). */
export const errorCodeOverrides = ${overrides};
`,
    ),
    declarations: declarationsText(
      VALIDATOR_TYPES,
      `/** Request-body validator of each operation. */
export declare const requestValidators: { readonly [operationId in ${operationIds}]: GeneratedValidator };

/** Per operation: request property (JSON pointer) -> the code its own constraints answer (x-error-code). */
export declare const errorCodeOverrides: { readonly [operationId in ${operationIds}]: Readonly<Record<string, string>> };
`,
    ),
  };
  const responses: RenderedModule = {
    module: moduleText(
      responseExports,
      `/** Response-body validator of each operation by HTTP status; error statuses accept only their x-error-codes. */
export const responseValidators = {
${responseTable}
};
`,
    ),
    declarations: declarationsText(
      `import type { GeneratedValidator } from "./request-validators.gen.js";
`,
      `/** Response-body validator of each operation by HTTP status; error statuses accept only their x-error-codes. */
export declare const responseValidators: {
${responseShape}
};
`,
    ),
  };
  return { requests, responses, validatorCount: Object.keys(requestExports).length + Object.keys(responseExports).length, specSha256: spec.sha256 };
}
