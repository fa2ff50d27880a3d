/**
 * A nonce is used once: a replayed request gives 409 `OPEN_API_REPLAYED`, also when its first use failed business
 * validation and also on another operation. The body limit (Limits, deployer-configurable): a body of exactly the
 * limit is accepted; one byte more is 400 `REQUEST_INVALID`, or 413 from a gateway in front of the service.
 */
import { createNonce } from "@org/webinar-signing";
import { CheckFailure, expectError, expectOneOf, expectSuccess, type Check } from "../check";
import { probe, probeBody } from "./probe";

const replayChecks: Check[] = [
  {
    id: "signing.replay.same-request",
    title: "the same signed request sent twice -> accepted, then 409 OPEN_API_REPLAYED",
    async run(context) {
      const same = { nonce: createNonce(), timestamp: context.serverSeconds() };
      expectSuccess(await probe(context, same));
      expectError(await probe(context, same), 409, ["OPEN_API_REPLAYED"]);
      return undefined;
    },
  },
  {
    id: "signing.replay.after-invalid-body",
    title: "a nonce whose first use failed body validation, signed again over a valid body -> 409 OPEN_API_REPLAYED",
    async run(context) {
      const nonce = createNonce();
      const invalid = { ...probeBody(context), phone: null };
      expectError(await probe(context, { nonce, body: invalid }), 400, ["REQUEST_INVALID"]);
      expectError(await probe(context, { nonce }), 409, ["OPEN_API_REPLAYED"]);
      return undefined;
    },
  },
  {
    id: "signing.replay.other-operation",
    title: "a nonce used on one operation, signed again for another -> 409 OPEN_API_REPLAYED",
    async run(context) {
      const nonce = createNonce();
      expectSuccess(await probe(context, { nonce }));
      const overview = await context.call({
        operationId: "getWatchOverview",
        body: { ticketCode: context.options.ticketCode, playbackMode: "ALL" },
        nonce,
      });
      expectError(overview, 409, ["OPEN_API_REPLAYED"]);
      return undefined;
    },
  },
];

/** The probe body padded with trailing JSON white space to exactly `bytes` bytes. */
function paddedProbe(externalUserId: string, bytes: number): string {
  const text = JSON.stringify({ externalUserId });
  return text.padEnd(bytes, " ");
}

/**
 * A server may refuse an oversize body before reading it and close the connection while the body is still on its
 * way; whether the client reads the answer first or meets the reset then depends on timing (a busy machine, a
 * slow network). A client sends again; the kit does too, signed anew, and judges the first answer it gets. A
 * server that never answers still fails.
 */
const OVER_LIMIT_ATTEMPTS = 3;

async function answeredOnce<T>(attempts: number, send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (error instanceof CheckFailure || attempt >= attempts) throw error;
    }
  }
}

const sizeChecks: Check[] = [
  {
    id: "signing.body-limit.at-limit",
    title: "a body of exactly the body limit (JSON white space after the object) -> accepted",
    async run(context) {
      const { maxBodyBytes } = context.options;
      const answer = await probe(context, { rawBody: paddedProbe(context.externalUserId("signing"), maxBodyBytes) });
      expectSuccess(
        answer,
        `acceptance of ${maxBodyBytes} bytes (pass --max-body-bytes if the server's limit differs)`,
      );
      return `${maxBodyBytes} bytes`;
    },
  },
  {
    id: "signing.body-limit.over-limit",
    title: "a body one byte over the body limit -> 400 REQUEST_INVALID (or 413 from a gateway)",
    async run(context) {
      const { maxBodyBytes } = context.options;
      const answer = await answeredOnce(OVER_LIMIT_ATTEMPTS, () =>
        probe(context, { rawBody: paddedProbe(context.externalUserId("signing"), maxBodyBytes + 1) }),
      );
      expectOneOf(answer, [
        [400, ["REQUEST_INVALID"]],
        [413, []],
      ]);
      return `${maxBodyBytes + 1} bytes`;
    },
  },
];

export const replayAndSizeChecks: Check[] = [...replayChecks, ...sizeChecks];
