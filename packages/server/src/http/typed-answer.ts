/**
 * Answers typed by the document: the JSON body an operation answers with a status, read from the `operations`
 * type openapi-typescript generates, so a handler that answers a field or a status its document does not have
 * fails the build. The server adds `requestId` to every JSON answer itself, so handlers never write it.
 */

/** The JSON content of one response object of the generated types; never when it has none. */
type JsonContent<Response> = Response extends { content: { "application/json": infer Body } } ? Body : never;

/** The statuses an operation answers, as the generated `responses` object has them. */
export type AnswerStatus<Operation> = Operation extends { responses: infer Responses } ? keyof Responses : never;

/**
 * The body of an answer of `Operation` with `Status`, without the `requestId` the server adds; never when the
 * operation has no such answer.
 *
 * @example
 * type Created = AnswerBody<operations["createMerchant"], 201>;
 */
export type AnswerBody<Operation, Status extends PropertyKey> = Operation extends {
  responses: infer Responses;
}
  ? Status extends keyof Responses
    ? Omit<JsonContent<Responses[Status]>, "requestId">
    : never
  : never;

/** One answer of `Operation` with one of its success statuses (2xx), as a status and its typed body. */
export type SuccessAnswer<Operation> = {
  [Status in AnswerStatus<Operation>]: Status extends 200 | 201 | 202
    ? { status: Status; body: AnswerBody<Operation, Status> }
    : never;
}[AnswerStatus<Operation>];

/** A 200 answer. */
export const ok = <Body>(body: Body) => ({ status: 200 as const, body });
/** A 201 answer. */
export const created = <Body>(body: Body) => ({ status: 201 as const, body });
