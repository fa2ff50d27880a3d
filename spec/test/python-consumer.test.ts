/**
 * The published spec works outside TypeScript: Debian's python3-jsonschema (Python's reference JSON Schema engine,
 * which compiles `pattern` with Python's `re`) runs as a second process on the bundled spec users download
 * (docs/dist/openapi.json, built by `pnpm build`) and on spec/test-vectors/requests (see python/consumer.py).
 *
 * - Every pattern of the bundled spec compiles with Python's `re`.
 * - Every example of the bundled spec is valid for it.
 * - Every valid request vector is accepted, in the form a server works with (trimmed, a blank phone dropped).
 * - Every invalid request vector is rejected, except those whose rule a portable schema cannot express; those are
 *   listed below with the reason, and the list must match exactly what Python accepts, so it can neither hide a
 *   regression nor keep a stale entry. Vectors of raw bytes (not one JSON value) are a matter of the JSON parser,
 *   not of a schema, and are not sent.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** Debian's interpreter, the one `apt-get install python3-jsonschema` serves (`.ci/run` installs it). */
const PYTHON = "/usr/bin/python3";
const bundledSpec = fileURLToPath(new URL("../../docs/dist/openapi.json", import.meta.url));
const vectorsFolder = fileURLToPath(new URL("../test-vectors/requests", import.meta.url));
const consumer = fileURLToPath(new URL("./python/consumer.py", import.meta.url));

const LONE_SURROGATES = [
  "a lone high surrogate (\\ud800)",
  "a lone low surrogate (\\udc00)",
  "a surrogate pair in reverse order (\\udc3c\\ud83d)",
];
const TEXT_FIELDS = ["externalUserId", "displayName", "an externalUserIds entry", "cursor (its own code)"];
const textRule = "Conventions: text has no control characters, line separators or lone surrogates";

/** The invalid request vectors whose rule no portable JSON Schema says, by reason: Python accepts exactly these. */
const NOT_EXPRESSIBLE: ReadonlyArray<{ reason: string; vectors: string[] }> = [
  {
    reason:
      "no lone surrogate: no portable pattern can say it, so the spec says it with `x-no-lone-surrogates`, which " +
      "tools that do not know it (Python's jsonschema among them) ignore",
    vectors: TEXT_FIELDS.flatMap((field) =>
      LONE_SURROGATES.map(
        (name) =>
          `${textRule}: ${name} inside ${field} -> ${field.startsWith("cursor") ? "WATCH_REQUEST_INVALID" : "REQUEST_INVALID"}`,
      ),
    ),
  },
  {
    reason: "uids and externalUserIds hold at most 300 items together: a rule over two fields",
    vectors: [
      "Limits: uids and externalUserIds combined 301 -> WATCH_REQUEST_INVALID",
      "duplicates count toward the combined 300: 299 copies of one uid and 2 copies of one id -> WATCH_REQUEST_INVALID",
    ],
  },
  {
    reason: "judged after trimming: a schema sees the value as sent, spaces and all, which is not empty",
    vectors: [
      "externalUserId trimmed then non-empty: ideographic space only (U+3000) -> REQUEST_INVALID",
      "displayName trimmed then non-empty: white space only -> REQUEST_INVALID",
    ],
  },
  {
    reason:
      "Python's `re.search` lets `$` match before a final line feed, so an anchored pattern accepts one line feed " +
      "at the end of the value (ECMAScript and Go RE2 do not; Java's `find` and .NET behave like Python)",
    vectors: [
      "Conventions: text has no control characters: LF (U+000A) at the end of an externalUserIds entry -> REQUEST_INVALID",
      "Conventions: text has no control characters: LF (U+000A) at the end of cursor (its own code) -> WATCH_REQUEST_INVALID",
      "phone: a line feed at the end is not part of the format -> REQUEST_INVALID",
    ],
  },
];

interface Report {
  jsonschema: string;
  patterns: Array<{ pattern: string; error: string | null }>;
  examples: Array<{ where: string; errors: string[] }>;
  vectors: Array<{ operation: string; description: string; valid: boolean; accepted: boolean; errors: string[] }>;
}

function runConsumer(): Report {
  if (!existsSync(bundledSpec)) throw new Error(`${bundledSpec} is missing: run \`pnpm build\` first`);
  const result = spawnSync(PYTHON, [consumer, bundledSpec, vectorsFolder], { encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) throw new Error(`python3 consumer.py failed (${result.status}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as Report;
}

const report = runConsumer();
const reasonFor = (description: string) => NOT_EXPRESSIBLE.find(({ vectors }) => vectors.includes(description))?.reason;
const invalidVectors = report.vectors.filter((vector) => !vector.valid);

describe("Python's jsonschema reads the published spec", () => {
  it(`is python3-jsonschema 4 (found ${report.jsonschema})`, () => {
    expect(report.jsonschema).toMatch(/^4\./);
  });

  it("finds the examples of every operation's request and success answer, and of the schemas", () => {
    const places = report.examples.map((example) => example.where.split(" ").slice(0, 2).join(" "));
    for (const operation of ["upsertViewer", "issueLoginTicket", "getWatchOverview", "queryViewerWatch"])
      expect(places).toEqual(expect.arrayContaining([`${operation} request`, `${operation} 200`]));
    expect(report.examples.some((example) => example.where.startsWith("#/components/schemas/"))).toBe(true);
  });

  it.each(report.patterns)("Python's re compiles the pattern $pattern", ({ error }) => {
    expect(error).toBeNull();
  });

  it.each(report.examples)("the example $where is valid", ({ errors }) => {
    expect(errors).toEqual([]);
  });

  it.each(report.vectors.filter((vector) => vector.valid))(
    "$operation accepts the valid vector: $description",
    ({ accepted, errors }) => {
      expect(errors).toEqual([]);
      expect(accepted).toBe(true);
    },
  );

  it.each(invalidVectors.filter((vector) => reasonFor(vector.description) === undefined))(
    "$operation rejects: $description",
    ({ accepted }) => {
      expect(accepted).toBe(false);
    },
  );

  it.each(invalidVectors.filter((vector) => reasonFor(vector.description) !== undefined))(
    "$operation cannot reject (a rule no portable schema says): $description",
    ({ accepted, description }) => {
      expect(accepted, reasonFor(description)).toBe(true);
    },
  );

  it.each(NOT_EXPRESSIBLE)("each vector listed as not expressible exists: $reason", ({ vectors }) => {
    const descriptions = invalidVectors.map((vector) => vector.description);
    expect(vectors.filter((description) => !descriptions.includes(description))).toEqual([]);
  });
});
