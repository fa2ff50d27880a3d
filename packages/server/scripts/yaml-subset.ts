/**
 * A reader for the block-style subset of YAML that admin-openapi.yaml is written in, so the build can derive
 * the admin request validators from that document without a YAML dependency in this package (see README.md,
 * "Admin API"; with `yaml` as a devDependency this file can go). Supported: block mappings and sequences
 * (including `- key: value` items), plain, 'single' and "double" quoted scalars, numbers, booleans and null,
 * flow sequences and mappings on one line (`[a, b]`, `{}`), literal (`|`) and folded (`>`) block scalars, and
 * comments. Anything else (anchors, tags, multi-line plain scalars, multi-document streams) throws with its
 * line number instead of being misread.
 */

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  number: number;
  indent: number;
  /** The line without indentation and trailing comment. */
  text: string;
  /** The line as written (block scalars keep it). */
  raw: string;
}

class YamlSubsetError extends Error {
  constructor(line: number, message: string) {
    super(`admin-openapi.yaml line ${line}: ${message}`);
  }
}

function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quote !== undefined) {
      if (char === quote) {
        if (quote === "'" && text[i + 1] === "'") i += 1;
        else quote = undefined;
      } else if (char === "\\" && quote === '"') i += 1;
    } else if (char === "'" || char === '"') {
      if (i === 0 || /[\s[{,:-]/.test(text[i - 1]!)) quote = char;
    } else if (char === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      return text.slice(0, i).trimEnd();
    }
  }
  return text.trimEnd();
}

function toLines(source: string): Line[] {
  return source.split(/\r?\n/).map((raw, index) => {
    const indent = raw.length - raw.trimStart().length;
    if (raw.slice(0, indent).includes("\t")) throw new YamlSubsetError(index + 1, "tabs are not allowed in indentation");
    return { number: index + 1, indent, text: stripComment(raw.trimStart()), raw };
  });
}

function plainScalar(text: string, line: number): YamlValue {
  if (text === "" || text === "~" || text === "null") return null;
  if (text === "true") return true;
  if (text === "false") return false;
  if (/^-?(0|[1-9][0-9]*)$/.test(text)) return Number(text);
  if (/^-?(0|[1-9][0-9]*)\.[0-9]+$/.test(text)) return Number(text);
  if (/^[&*!|>%@`]/.test(text)) throw new YamlSubsetError(line, `unsupported YAML syntax: ${text}`);
  return text;
}

/** Parses one flow value (`[...]`, `{...}`, quoted or plain scalar) starting at `pos`; returns it and the next position. */
function flowValue(text: string, pos: number, line: number, inFlow: boolean): [YamlValue, number] {
  while (text[pos] === " ") pos += 1;
  const char = text[pos];
  if (char === "[" || char === "{") {
    const closing = char === "[" ? "]" : "}";
    const items: YamlValue[] = [];
    const mapping: { [key: string]: YamlValue } = {};
    pos += 1;
    for (;;) {
      while (text[pos] === " ") pos += 1;
      if (text[pos] === closing) return [char === "[" ? items : mapping, pos + 1];
      if (char === "[") {
        const [item, next] = flowValue(text, pos, line, true);
        items.push(item);
        pos = next;
      } else {
        const [key, afterKey] = flowValue(text, pos, line, true);
        if (text[afterKey] !== ":") throw new YamlSubsetError(line, "expected ':' in flow mapping");
        const [value, next] = flowValue(text, afterKey + 1, line, true);
        mapping[String(key)] = value;
        pos = next;
      }
      while (text[pos] === " ") pos += 1;
      if (text[pos] === ",") pos += 1;
      else if (text[pos] !== closing) throw new YamlSubsetError(line, `expected ',' or '${closing}'`);
    }
  }
  if (char === "'") {
    let value = "";
    for (pos += 1; pos < text.length; pos += 1) {
      if (text[pos] === "'") {
        if (text[pos + 1] === "'") {
          value += "'";
          pos += 1;
        } else return [value, pos + 1];
      } else value += text[pos];
    }
    throw new YamlSubsetError(line, "unterminated single-quoted string");
  }
  if (char === '"') {
    let end = pos + 1;
    while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
    if (end >= text.length) throw new YamlSubsetError(line, "unterminated double-quoted string");
    return [JSON.parse(text.slice(pos, end + 1)) as string, end + 1];
  }
  let end = pos;
  const stop = inFlow ? /[,\]}]/ : /$^/;
  while (end < text.length && !stop.test(text[end]!) && !(text[end] === ":" && (text[end + 1] === " " || end + 1 === text.length) && inFlow)) end += 1;
  return [plainScalar(text.slice(pos, end).trim(), line), end];
}

function inlineValue(text: string, line: number): YamlValue {
  const [value, end] = flowValue(text, 0, line, false);
  if (text.slice(end).trim() !== "") throw new YamlSubsetError(line, `unexpected text after value: ${text.slice(end)}`);
  return value;
}

/** Splits `key: rest` at the first `: ` (or a trailing `:`) outside quotes; undefined when the line is no mapping entry. */
function splitKey(text: string): [string, string] | undefined {
  if (text.startsWith("'") || text.startsWith('"')) {
    const [key, end] = flowValue(text, 0, 0, true);
    if (text[end] !== ":") return undefined;
    return [String(key), text.slice(end + 1).trim()];
  }
  const match = /^([^\s:[\]{},][^:]*?):(?:\s+(.*))?$/.exec(text);
  return match === null ? undefined : [match[1]!, (match[2] ?? "").trim()];
}

class Parser {
  private index = 0;
  constructor(private readonly lines: Line[]) {}

  parse(): YamlValue {
    this.skipBlank();
    const value = this.block(0);
    this.skipBlank();
    if (this.index < this.lines.length) throw new YamlSubsetError(this.lines[this.index]!.number, "unexpected indentation");
    return value;
  }

  private skipBlank(): void {
    while (this.index < this.lines.length && this.lines[this.index]!.text === "") this.index += 1;
  }

  private peek(): Line | undefined {
    this.skipBlank();
    return this.lines[this.index];
  }

  private block(indent: number): YamlValue {
    const first = this.peek();
    if (first === undefined) return null;
    if (first.indent !== indent) throw new YamlSubsetError(first.number, `expected indentation ${indent}, found ${first.indent}`);
    return first.text === "-" || first.text.startsWith("- ") ? this.sequence(indent) : this.mapping(indent);
  }

  private sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    for (let line = this.peek(); line !== undefined && line.indent === indent && (line.text === "-" || line.text.startsWith("- ")); line = this.peek()) {
      const rest = line.text.slice(1).trimStart();
      if (rest === "") {
        this.index += 1;
        const next = this.peek();
        items.push(next !== undefined && next.indent > indent ? this.block(next.indent) : null);
      } else if (splitKey(rest) !== undefined && !rest.startsWith("[") && !rest.startsWith("{")) {
        // `- key: value` opens a mapping whose keys are aligned with `key`.
        const itemIndent = indent + (line.text.length - rest.length);
        this.lines[this.index] = { ...line, indent: itemIndent, text: rest };
        items.push(this.mapping(itemIndent));
      } else {
        this.index += 1;
        items.push(inlineValue(rest, line.number));
      }
    }
    return items;
  }

  private mapping(indent: number): { [key: string]: YamlValue } {
    const result: { [key: string]: YamlValue } = {};
    for (let line = this.peek(); line !== undefined && line.indent === indent; line = this.peek()) {
      if (line.text.startsWith("- ")) break;
      const entry = splitKey(line.text);
      if (entry === undefined) throw new YamlSubsetError(line.number, `expected "key: value", found ${JSON.stringify(line.text)}`);
      const [key, rest] = entry;
      if (Object.hasOwn(result, key)) throw new YamlSubsetError(line.number, `duplicate key ${key}`);
      this.index += 1;
      if (rest === "") {
        const next = this.peek();
        if (next !== undefined && next.indent > indent) result[key] = this.block(next.indent);
        else if (next !== undefined && next.indent === indent && next.text.startsWith("- ")) result[key] = this.sequence(indent);
        else result[key] = null;
      } else if (/^[|>][+-]?$/.test(rest)) {
        result[key] = this.blockScalar(indent, rest, line.number);
      } else {
        result[key] = inlineValue(rest, line.number);
      }
    }
    return result;
  }

  private blockScalar(parentIndent: number, header: string, lineNumber: number): string {
    const collected: string[] = [];
    let contentIndent: number | undefined;
    while (this.index < this.lines.length) {
      const line = this.lines[this.index]!;
      const blank = line.raw.trim() === "";
      if (!blank) {
        if (line.indent <= parentIndent) break;
        contentIndent ??= line.indent;
        if (line.indent < contentIndent) throw new YamlSubsetError(line.number, "block scalar line is less indented than its first line");
      }
      collected.push(blank ? "" : line.raw.slice(contentIndent));
      this.index += 1;
    }
    if (contentIndent === undefined) throw new YamlSubsetError(lineNumber, "empty block scalar");
    while (collected.length > 0 && collected[collected.length - 1] === "") collected.pop();
    const body = header.startsWith(">") ? collected.join("\n").replace(/([^\n])\n(?=[^\n ])/g, "$1 ") : collected.join("\n");
    return header.endsWith("-") ? body : `${body}\n`;
  }
}

/**
 * Parses a document written in the subset described above.
 *
 * @example
 * parseYamlSubset("a: 1\nb: [x, 'y']\n"); // { a: 1, b: ["x", "y"] }
 */
export function parseYamlSubset(source: string): YamlValue {
  return new Parser(toLines(source)).parse();
}
