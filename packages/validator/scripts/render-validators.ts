/**
 * Generates the precompiled validators from spec/openapi.yaml with ajv standalone, one validator per request body
 * and per response body, so nothing is compiled, eval'd or `new Function`'d at run time. They go into two
 * modules: src/request-validators.gen.js, which the verification pipeline loads, and
 * src/response-validators.gen.js, four fifths of the code, which only contract tests load
 * (`@org/webinar-validator/contract`), so a server never pays for parsing them.
 *
 * ajv's output is post-processed by @org/webinar-build/ajv-standalone (shared with the server's generator): its
 * runtime helpers inlined or loaded on first use (ajv-formats is the package's one runtime dependency). Each
 * result is an ES module that tsup bundles into both the ESM and the CommonJS build.
 */
import standaloneCode from "ajv/dist/standalone/index.js";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { postProcessStandalone } from "@org/webinar-build/ajv-standalone";
import { buildSpecSchemas, createSpecAjv, type SpecSchemas } from "./spec-schemas";

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

/**
 * White space other than the ASCII space, the line and paragraph separators and the byte order mark, written as
 * `\uXXXX` escapes. They stand in the spec's patterns as literal characters (the one spelling every regular
 * expression engine reads); in generated code they appear only inside string literals, where the escape is the
 * same character, and a reader (or an editor) of the file sees them.
 */
const escapeInvisibleCharacters = (code: string) =>
  code.replace(
    /[\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
  );

/** ajv standalone code for `exports` (export name -> schema ref), post-processed (@org/webinar-build/ajv-standalone). */
function standaloneModuleCode(ajv: Parameters<typeof standaloneCode>[0], exports: Record<string, string>): string {
  return postProcessStandalone(standaloneCode(ajv, exports), fullFormats);
}

/** What both generated modules are made from. */
interface RenderContext {
  specSchemas: SpecSchemas;
  ajv: Parameters<typeof standaloneCode>[0];
  /** Banner of both files. */
  banner: string;
  /** `"upsertViewer" | …`, for the declarations. */
  operationIds: string;
}

const SPEC_HASH_DOC = "/** SHA-256 of the spec/openapi.yaml these validators were generated from. */";

const table = (entries: Array<[string, string]>, indent: string) =>
  entries.map(([key, value]) => `${indent}${JSON.stringify(key)}: ${value},`).join("\n");

/** One generated module: ajv's code for `exports`, the spec's hash, then `tail` (its tables). */
function moduleText(context: RenderContext, exports: Record<string, string>, tail: string): string {
  const { banner, ajv, specSchemas } = context;
  return escapeInvisibleCharacters(
    `${banner}${standaloneModuleCode(ajv, exports)}\n\n${SPEC_HASH_DOC}\nexport const specSha256 = ${JSON.stringify(specSchemas.spec.sha256)};\n\n${tail}`,
  );
}

/** Its declarations: the spec's hash, then `tail`. */
function declarationsText(context: RenderContext, head: string, tail: string): string {
  return `${context.banner}\n${head}\n${SPEC_HASH_DOC}\nexport declare const specSha256: string;\n\n${tail}`;
}

/** request-validators.gen.js and its declarations: a validator per request body, error-code overrides, messages. */
function renderRequestModule(context: RenderContext): { rendered: RenderedModule; count: number } {
  const { operations, patternMessages } = context.specSchemas;
  const exports = Object.fromEntries(
    operations.map((operation) => [operation.request.exportName, operation.request.ref]),
  );
  const requestTable = table(
    operations.map((operation) => [operation.operationId, operation.request.exportName]),
    "  ",
  );
  const overrides = JSON.stringify(
    Object.fromEntries(operations.map((operation) => [operation.operationId, operation.errorCodeOverrides])),
    null,
    2,
  );
  const rendered: RenderedModule = {
    module: moduleText(
      context,
      exports,
      `/** Request-body validator of each operation. */
export const requestValidators = {
${requestTable}
};

/** Per operation: request property (JSON pointer) -> the code its own constraints answer (x-error-code). */
export const errorCodeOverrides = ${overrides};

/** Each pattern of the spec -> what it asks for in words (x-pattern-message). */
export const patternMessages = ${JSON.stringify(patternMessages, null, 2)};
`,
    ),
    declarations: declarationsText(
      context,
      VALIDATOR_TYPES,
      `/** Request-body validator of each operation. */
export declare const requestValidators: { readonly [operationId in ${context.operationIds}]: GeneratedValidator };

/** Per operation: request property (JSON pointer) -> the code its own constraints answer (x-error-code). */
export declare const errorCodeOverrides: { readonly [operationId in ${context.operationIds}]: Readonly<Record<string, string>> };

/** Each pattern of the spec -> what it asks for in words (x-pattern-message). */
export declare const patternMessages: Readonly<Record<string, string>>;
`,
    ),
  };
  return { rendered, count: Object.keys(exports).length };
}

/** response-validators.gen.js and its declarations: a validator per operation and HTTP status. */
function renderResponseModule(context: RenderContext): { rendered: RenderedModule; count: number } {
  const { operations } = context.specSchemas;
  const exports: Record<string, string> = {};
  for (const operation of operations)
    for (const response of Object.values(operation.responses)) exports[response.exportName] = response.ref;
  const responseTable = operations
    .map((operation) => {
      const statuses = table(
        Object.entries(operation.responses).map(([status, schema]) => [status, schema.exportName]),
        "    ",
      );
      return `  ${JSON.stringify(operation.operationId)}: {\n${statuses}\n  },`;
    })
    .join("\n");
  const responseShape = operations
    .map(
      (operation) =>
        `  readonly ${operation.operationId}: { readonly [status in ${Object.keys(operation.responses)
          .map((status) => JSON.stringify(status))
          .join(" | ")}]: GeneratedValidator };`,
    )
    .join("\n");
  const rendered: RenderedModule = {
    module: moduleText(
      context,
      exports,
      `/** Response-body validator of each operation by HTTP status; error statuses accept only their x-error-codes. */
export const responseValidators = {
${responseTable}
};
`,
    ),
    declarations: declarationsText(
      context,
      `import type { GeneratedValidator } from "./request-validators.gen.js";
`,
      `/** Response-body validator of each operation by HTTP status; error statuses accept only their x-error-codes. */
export declare const responseValidators: {
${responseShape}
};
`,
    ),
  };
  return { rendered, count: Object.keys(exports).length };
}

/** Renders both generated modules and their declarations from the spec without writing them. */
export function renderValidators(): RenderedValidators {
  const specSchemas = buildSpecSchemas();
  const { spec, operations } = specSchemas;
  const context: RenderContext = {
    specSchemas,
    ajv: createSpecAjv(specSchemas, { code: { source: true, esm: true, lines: true } }),
    banner:
      `// Generated by packages/validator/scripts/generate.ts (ajv standalone) from spec/openapi.yaml.\n` +
      `// spec sha256: ${spec.sha256}\n` +
      `// Do not edit: change the spec and run \`pnpm generate\`.\n`,
    operationIds: operations.map((operation) => JSON.stringify(operation.operationId)).join(" | "),
  };
  const requests = renderRequestModule(context);
  const responses = renderResponseModule(context);
  return {
    requests: requests.rendered,
    responses: responses.rendered,
    validatorCount: requests.count + responses.count,
    specSha256: spec.sha256,
  };
}
