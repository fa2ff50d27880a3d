/**
 * The one post-processor of ajv's standalone output, shared by the validator's generator (spec/openapi.yaml) and
 * the generators of the server's documents (admin-openapi.yaml, watch-openapi.yaml, console-openapi.yaml), so every generated
 * validator module loads and runs the same way: nothing is compiled, eval'd or `new Function`'d at run time.
 *
 * ajv's standalone output `require()`s runtime helpers even in ESM mode. The code-point length helper is inlined
 * (ajv stays a build-time dependency); formats become stand-ins that load ajv-formats through `createRequire` on
 * first use (loading it eagerly from ESM costs more than the validators themselves). Any other `require()`, and
 * any `new Function` or `eval`, fails the generation rather than ship a module that cannot load.
 */

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

/** The stand-in for one ajv-formats format, of the same shape as its definition (`f(x)`, `f.test(x)`, `f.validate(x)`). */
function formatStandIn(name: string, formats: Readonly<Record<string, unknown>>): string {
  const definition = formats[name];
  const at = `formats()[${JSON.stringify(name)}]`;
  if (definition instanceof RegExp) return `{ test: (value) => ${at}.test(value) }`;
  if (typeof definition === "function") return `(value) => ${at}(value)`;
  if (
    typeof definition === "object" &&
    definition !== null &&
    typeof (definition as { validate?: unknown }).validate === "function"
  ) {
    return `{ validate: (value) => ${at}.validate(value) }`;
  }
  throw new Error(`format ${name}: unsupported definition in ajv-formats`);
}

/**
 * ajv's standalone ES module code with its runtime `require()`s replaced and only the helpers it uses prepended.
 * `formats` is ajv-formats' `fullFormats`, needed only when the schemas use formats.
 *
 * @example
 * const code = postProcessStandalone(standaloneCode(ajv, { validate_createMerchant: "createMerchant" }));
 */
export function postProcessStandalone(standalone: string, formats: Readonly<Record<string, unknown>> = {}): string {
  let code = standalone.replaceAll('require("ajv/dist/runtime/ucs2length").default', "ucs2length");
  code = code.replace(
    /require\("ajv-formats\/dist\/formats"\)\.fullFormats(?:\.([\w$]+)|\["([^"]+)"\])/g,
    (_match, dotted, quoted) => formatStandIn((dotted ?? quoted) as string, formats),
  );
  const leftover = code.match(/require\([^)]*\)/g);
  if (leftover) throw new Error(`unexpected runtime require in ajv output: ${leftover.join(", ")}`);
  if (/\bnew Function\b|\beval\s*\(/.test(code)) throw new Error("ajv output contains new Function or eval");
  code = code.replace(/^"use strict";\s*/, "");
  const helpers = [
    code.includes("formats()") ? FORMATS_HELPER : "",
    /\bucs2length\b/.test(code) ? UCS2LENGTH_HELPER : "",
  ].filter(Boolean);
  return `${helpers.join("\n")}\n${code}`;
}
