/**
 * Paths and methods (Conventions, Errors and retries): an operation path is used exactly as given, so a
 * trailing slash, a query string, another letter case or a percent-escape is a non-canonical path, 401
 * `OPEN_API_UNAUTHORIZED`; a path that is no operation is 404 and a method other than POST 405, both with the code
 * `REQUEST_INVALID`. Each request is signed over the target it is sent to, as a careless client would.
 */
import { operations, type ErrorCode, type OperationId } from "@org/webinar-types";
import { expectError, expectOneOf, type Check } from "../check";
import { probe, probeCheck, refusedWith, UPSERT_PATH } from "./probe";

const nonCanonical = (id: string, title: string, target: string): Check =>
  probeCheck(
    `paths.${id}`,
    `${title} (${target}) -> 401 OPEN_API_UNAUTHORIZED`,
    { target },
    refusedWith(401, "OPEN_API_UNAUTHORIZED"),
  );

const NO_OPERATION: [number, ErrorCode[]] = [404, ["REQUEST_INVALID"]];

const pathChecks: Check[] = [
  nonCanonical("trailing-slash", "an operation path with a trailing slash", `${UPSERT_PATH}/`),
  nonCanonical("query-string", "an operation path with a query string", `${UPSERT_PATH}?debug=1`),
  nonCanonical(
    "letter-case",
    "an operation path in another letter case",
    UPSERT_PATH.replace("/viewers/", "/Viewers/"),
  ),
  nonCanonical(
    "percent-encoding",
    "an operation path with a percent-escape",
    UPSERT_PATH.replace("upsert", "%75psert"),
  ),
  {
    id: "paths.dot-segment",
    title: `an operation path with a dot segment (/api/v1/open/viewers/./upsert) -> 401 OPEN_API_UNAUTHORIZED or 404 REQUEST_INVALID`,
    async run(context) {
      // The spec names trailing slash, query, letter case and encoding as non-canonical; a dot segment is either
      // that or no operation at all.
      const answer = await probe(context, { target: UPSERT_PATH.replace("/upsert", "/./upsert") });
      expectOneOf(answer, [[401, ["OPEN_API_UNAUTHORIZED"]], NO_OPERATION]);
      return undefined;
    },
  },
  {
    id: "paths.double-slash",
    title:
      "an operation path with an empty segment (/api/v1/open//viewers/upsert) -> 401 OPEN_API_UNAUTHORIZED or 404 REQUEST_INVALID",
    async run(context) {
      const answer = await probe(context, { target: UPSERT_PATH.replace("/open/", "/open//") });
      expectOneOf(answer, [[401, ["OPEN_API_UNAUTHORIZED"]], NO_OPERATION]);
      return undefined;
    },
  },
  ...[
    ["unknown-operation", "/api/v1/open/viewers/delete"],
    ["other-version", UPSERT_PATH.replace("/v1/", "/v2/")],
  ].map(
    ([id, target]): Check => ({
      id: `paths.${id}`,
      title: `a signed POST to a path that is no operation (${target}) -> 404 REQUEST_INVALID`,
      async run(context) {
        expectError(await probe(context, { target: target! }), 404, ["REQUEST_INVALID"]);
        return undefined;
      },
    }),
  ),
];

const wrongMethod = (operationId: OperationId, method: string): Check => ({
  id: `methods.${operationId}.${method.toLowerCase()}`,
  title: `${method} ${operations[operationId].path}, signed -> 405 REQUEST_INVALID`,
  async run(context) {
    const answer = await context.call({
      operationId,
      method,
      body: "",
      rawBody: "",
      target: operations[operationId].path,
    });
    expectError(answer, 405, ["REQUEST_INVALID"]);
    return undefined;
  },
});

const methodChecks: Check[] = [
  ...(Object.keys(operations) as OperationId[]).map((operationId) => wrongMethod(operationId, "GET")),
  wrongMethod("upsertViewer", "PUT"),
  wrongMethod("upsertViewer", "PATCH"),
  wrongMethod("upsertViewer", "DELETE"),
];

export const routingChecks: Check[] = [...pathChecks, ...methodChecks];
