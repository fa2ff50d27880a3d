/**
 * The server's own OpenAPI documents, admin-openapi.yaml, watch-openapi.yaml and console-openapi.yaml (the admin and
 * console contracts', of which this package keeps copies), are authoritative: the checked-in modules are generated from them
 * (drift check), every request example passes the server's body check
 * and every response example its schema, every pattern is explained in words, and the facts they share with the
 * Open API spec (ticketCode shape and wording) agree with spec/openapi.yaml.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bodyChecker } from "../src/http/body-check";
import * as adminModule from "@org/webinar-admin-contract/validators";
import * as watchModule from "../src/watch/watch-validators.gen.js";
import * as consoleModule from "@org/webinar-console-contract/validators";
import {
  createDocumentAjv,
  DOCUMENT_COPIES,
  type DocumentName,
  loadServerDocument,
  renderDocumentCopy,
  renderWatchModules,
} from "../scripts/server-document";

type Json = Record<string, any>;

const generated = {
  admin: {
    sha256: adminModule.adminDocumentSha256,
    operations: adminModule.adminOperations,
    check: bodyChecker({
      validators: adminModule.adminBodyValidators,
      patternMessages: adminModule.adminPatternMessages,
    }),
  },
  watch: {
    sha256: watchModule.watchDocumentSha256,
    operations: watchModule.watchOperations,
    check: bodyChecker({
      validators: watchModule.watchBodyValidators,
      patternMessages: watchModule.watchPatternMessages,
    }),
  },
  console: {
    sha256: consoleModule.consoleDocumentSha256,
    operations: consoleModule.consoleOperations,
    check: bodyChecker({
      validators: consoleModule.consoleBodyValidators,
      patternMessages: consoleModule.consolePatternMessages,
    }),
  },
} as const;

const spec = parse(readFileSync(new URL("../../../spec/openapi.yaml", import.meta.url), "utf8")) as Json;

it("watch-openapi.yaml's modules are up to date (run `pnpm --filter @org/webinar-server generate`)", async () => {
  for (const [file, text] of Object.entries(await renderWatchModules(loadServerDocument("watch"))))
    expect(readFileSync(file, "utf8"), file).toBe(text);
});

it.each(["admin", "console"] as const)(
  "this package's %s-openapi.yaml is its contract's document under its banner (run `pnpm generate`)",
  (name) => {
    expect(readFileSync(DOCUMENT_COPIES[name].copy, "utf8")).toBe(renderDocumentCopy(name));
  },
);

describe.each(["admin", "watch", "console"] as DocumentName[])("%s-openapi.yaml", (name) => {
  const loaded = loadServerDocument(name);
  const document = loaded.document as Json;
  const modules = generated[name];

  it("the generated modules are of this document: its SHA-256 and its operations", () => {
    expect(modules.sha256).toBe(loaded.sha256);
    expect(Object.keys(modules.operations)).toEqual(loaded.operations.map((operation) => operation.operationId));
  });

  it("is OpenAPI 3.1 and every operation has a summary, a tag and a 4xx answer", () => {
    expect(document.openapi).toBe("3.1.0");
    for (const { method, path } of loaded.operations) {
      const operation = document.paths[path][method.toLowerCase()];
      expect(operation.summary, `${method} ${path}`).toBeTruthy();
      expect(operation.tags, `${method} ${path}`).toHaveLength(1);
      expect(
        Object.keys(operation.responses).some((status) => status.startsWith("4")),
        `${method} ${path}`,
      ).toBe(true);
    }
  });

  it("every request example is valid for its schema (ajv compiled at run time) and passes the body check", () => {
    const ajv = createDocumentAjv();
    for (const { operationId, method, path, bodySchema } of loaded.operations) {
      if (bodySchema === undefined) continue;
      const example: unknown =
        document.paths[path][method.toLowerCase()].requestBody.content["application/json"].example;
      expect(example, `${method} ${path} has an example`).toBeDefined();
      const validate = ajv.compile(bodySchema);
      expect(validate(example) ? [] : validate.errors, `${method} ${path}`).toEqual([]);
      expect(modules.check(operationId as never, example), `${method} ${path}`).toEqual([]);
    }
  });

  it("every response example is valid for its schema", () => {
    const ajv = createDocumentAjv();
    for (const { method, path, responseSchemas } of loaded.operations) {
      const responses = document.paths[path][method.toLowerCase()].responses as Json;
      for (const [status, schema] of Object.entries(responseSchemas)) {
        const response = responses[status].$ref
          ? document.components.responses[responses[status].$ref.split("/").pop()]
          : responses[status];
        const example: unknown = response.content["application/json"].example;
        if (example === undefined) continue;
        const validate = ajv.compile(schema);
        expect(validate(example) ? [] : validate.errors, `${method} ${path} ${status}`).toEqual([]);
      }
    }
  });

  it("every pattern is explained in words, and the ticketCode is the Open API's, in shape and in words", () => {
    expect(Object.keys(loaded.patternMessages).length).toBeGreaterThan(0);
    const ticketCode = document.components.schemas.TicketCode;
    const specTicketCode = spec.components.schemas.TicketCode;
    expect(ticketCode).toMatchObject({
      pattern: specTicketCode.pattern,
      minLength: specTicketCode.minLength,
      maxLength: specTicketCode.maxLength,
      "x-pattern-message": specTicketCode["x-pattern-message"],
    });
  });

  it("lists every error code the server can answer, with its status", async () => {
    const { errorStatus } = await import("../src/errors");
    const codeRef: string = document.components.schemas.ErrorEnvelope.properties.error.properties.code.$ref;
    const codes = document.components.schemas[codeRef.split("/").pop()!].enum as string[];
    for (const code of codes) expect(errorStatus[code as keyof typeof errorStatus], code).toBeGreaterThan(0);
  });
});
