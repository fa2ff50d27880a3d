/**
 * Every rule of each request schema, from the spec's request-body vectors (spec/test-vectors/requests, shipped
 * here as request-vectors.gen.ts): each vector is signed and sent as it is, and the server must refuse an invalid
 * body with 400 and the vector's code, and let a valid one through (any answer but a refusal of the body: the
 * vectors name a viewer that need not exist, so 404 and the like are fine). The vectors' example webinar is replaced
 * by the run's own, so a valid body is answered for real and its success compared with the vector's `normalized`
 * result (the body itself when the vector has none).
 */
import type { OperationId } from "@org/webinar-types";
import { CheckFailure, expectBodyAccepted, expectError, type Check } from "../check";
import type { RequestVector } from "../request-vector";
import { requestVectors } from "../request-vectors.gen";
import type { RunContext } from "../run-context";
import { normalizedDifferences } from "./normalized";

/** The ticketCode of the webinar the vectors name; a code of the spec's own alphabet, so it never needs escaping. */
const VECTOR_TICKET_CODE = "WBN8K2QX";

/** `text` with the vectors' webinar replaced by the run's. */
const ownWebinar = (context: RunContext, text: string) =>
  text.replaceAll(VECTOR_TICKET_CODE, context.options.ticketCode);

function rawBodyOf(context: RunContext, vector: RequestVector): Uint8Array | string {
  if (vector.rawBodyHex !== undefined) return Uint8Array.from(Buffer.from(vector.rawBodyHex, "hex"));
  return ownWebinar(context, vector.rawBody ?? JSON.stringify(vector.body));
}

/** What the server should have understood: the vector's `normalized` result, or its body, for the run's webinar. */
function normalizedOf(context: RunContext, vector: RequestVector): unknown {
  const normalized = vector.normalized ?? vector.body;
  return normalized === undefined ? undefined : JSON.parse(ownWebinar(context, JSON.stringify(normalized)));
}

/** A cursor in a valid vector was made up, so it matches no query: its own 400 is a conforming answer too. */
const carriesCursor = (vector: RequestVector) =>
  typeof vector.body === "object" && vector.body !== null && "cursor" in vector.body;

function vectorCheck(operationId: OperationId, vector: RequestVector, index: number): Check {
  return {
    id: `body.${operationId}.${String(index + 1).padStart(3, "0")}`,
    title: vector.description,
    async run(context) {
      const answer = await context.call({ operationId, body: undefined, rawBody: rawBodyOf(context, vector) });
      if (!vector.valid) expectError(answer, 400, [vector.code!]);
      else if (carriesCursor(vector) && answer.status === 400) expectError(answer, 400, ["WATCH_REQUEST_INVALID"]);
      else {
        expectBodyAccepted(answer);
        const wrong = normalizedDifferences(operationId, normalizedOf(context, vector), answer);
        if (wrong.length > 0)
          throw new CheckFailure(`the answer does not echo the body as normalized: ${wrong.join("; ")}`);
      }
      return undefined;
    },
  };
}

export const bodyRuleChecks: Check[] = (Object.keys(requestVectors) as OperationId[]).flatMap((operationId) =>
  requestVectors[operationId].map((vector, index) => vectorCheck(operationId, vector, index)),
);
