/**
 * The checked-in modules are what admin-openapi.yaml generates (`pnpm --filter @org/webinar-admin-contract
 * generate`), and the validators this package exports are those of the document as it is.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { adminDocumentSha256 } from "../src/validators";
import { renderContract } from "../scripts/render-contract";

describe("admin-openapi.yaml's generated modules", async () => {
  const { sha256, files } = await renderContract();

  it.each(Object.keys(files).map((file) => [file.split("/").pop()!, file]))("%s is up to date", (_name, file) => {
    expect(readFileSync(file, "utf8")).toBe(files[file]);
  });

  it("the validators are of this document (its SHA-256)", () => {
    expect(adminDocumentSha256).toBe(sha256);
  });
});
