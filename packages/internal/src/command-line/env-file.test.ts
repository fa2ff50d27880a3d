/**
 * `--env-file`: the variables of a dotenv file, under those of the environment (as with `node --env-file`); a file
 * that cannot be read is a usage error, not a crash.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { withEnvFile } from "./env-file";
import { UsageError } from "./usage-error";

const folder = mkdtempSync(join(tmpdir(), "env-file-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const envFile = join(folder, ".env");
writeFileSync(envFile, "WEBINAR_API_KEY=from-file\nWEBINAR_BASE_URL=https://file.example\n# a comment\n");

describe("withEnvFile", () => {
  it("without a file, the environment as it is", () => {
    const env = { WEBINAR_API_KEY: "from-env" };
    expect(withEnvFile(undefined, env)).toBe(env);
  });

  it("the file's variables, the environment's winning where both set one", () => {
    expect(withEnvFile(envFile, { WEBINAR_API_KEY: "from-env" })).toEqual({
      WEBINAR_API_KEY: "from-env",
      WEBINAR_BASE_URL: "https://file.example",
    });
  });

  it("a file that does not exist is a UsageError naming it", () => {
    const missing = join(folder, "missing.env");
    const read = () => withEnvFile(missing, {});
    expect(read).toThrow(UsageError);
    expect(read).toThrow(`--env-file ${missing}: no such file`);
  });

  it("a folder in place of a file is a UsageError naming it", () => {
    const read = () => withEnvFile(folder, {});
    expect(read).toThrow(UsageError);
    expect(read).toThrow(`--env-file ${folder}: `);
  });
});
