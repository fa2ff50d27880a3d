/**
 * Every rule of each request schema, from the spec's request-body vectors (spec/test-vectors/requests, shipped
 * here as request-vectors.gen.ts): each vector is signed and sent as it is, and the server must refuse an invalid
 * body with 400 and the vector's code, and let a valid one through (any answer but a refusal of the body: the
 * vectors name a viewer or webinar that need not exist, so 404 and the like are fine).
 */
import type { OperationId } from "@org/webinar-types";
import { expectBodyAccepted, expectError, type Check } from "../check";
import type { RequestVector } from "../request-vector";
import { requestVectors } from "../request-vectors.gen";

function rawBodyOf(vector: RequestVector): Uint8Array | string {
  if (vector.rawBodyHex !== undefined) return Uint8Array.from(Buffer.from(vector.rawBodyHex, "hex"));
  if (vector.rawBody !== undefined) return vector.rawBody;
  return JSON.stringify(vector.body);
}

/** A cursor in a valid vector was made up, so it matches no query: its own 400 is a conforming answer too. */
const carriesCursor = (vector: RequestVector) =>
  typeof vector.body === "object" && vector.body !== null && "cursor" in vector.body;

function vectorCheck(operationId: OperationId, vector: RequestVector, index: number): Check {
  return {
    id: `body.${operationId}.${String(index + 1).padStart(3, "0")}`,
    title: vector.description,
    async run(context) {
      const answer = await context.call({ operationId, body: undefined, rawBody: rawBodyOf(vector) });
      if (!vector.valid) expectError(answer, 400, [vector.code!]);
      else if (carriesCursor(vector) && answer.status === 400) expectError(answer, 400, ["WATCH_REQUEST_INVALID"]);
      else expectBodyAccepted(answer);
      return undefined;
    },
  };
}

export const bodyRuleChecks: Check[] = (Object.keys(requestVectors) as OperationId[]).flatMap((operationId) =>
  requestVectors[operationId].map((vector, index) => vectorCheck(operationId, vector, index)),
);
