/**
 * Races a client can start: the same request 20 times at once. One signed request (one nonce) is accepted once and
 * refused as a replay 19 times; 20 upserts of one new externalUserId make one viewer, `created: true` in exactly one
 * answer; one login ticket exchanged 20 times at once opens one session. A server that checks and then writes,
 * without a constraint or an atomic step between, passes every sequential check and fails these.
 */
import { createNonce } from "@org/webinar-signing";
import type { UpsertViewerResult } from "@org/webinar-types";
import { statusLine } from "../answer";
import { dataOf, ensure, expectError, expectSuccess, skip, type Check } from "../check";
import { issueOk } from "./login-tickets";
import { probeBody } from "./probe";
import { EXCHANGE_HINT, ticketExchange } from "./ticket-exchange";
import { createViewer } from "./viewers";

const AT_ONCE = 20;

const times = <T>(make: () => Promise<T>) => Promise.all(Array.from({ length: AT_ONCE }, make));

export const concurrencyChecks: Check[] = [
  {
    id: "concurrency.nonce",
    title: `one signed request sent ${AT_ONCE} times at once -> accepted once, 409 OPEN_API_REPLAYED for the others`,
    async run(context) {
      const same = {
        operationId: "upsertViewer" as const,
        body: probeBody(context),
        nonce: createNonce(),
        timestamp: context.serverSeconds(),
      };
      const answers = await times(() => context.call(same));
      const accepted = answers.filter((answer) => answer.status === 200);
      ensure(
        accepted.length === 1,
        `${accepted.length} of ${AT_ONCE} were accepted: ${answers.map(statusLine).join(", ")}`,
      );
      for (const answer of answers) if (answer.status !== 200) expectError(answer, 409, ["OPEN_API_REPLAYED"]);
      expectSuccess(accepted[0]!);
      return undefined;
    },
  },
  {
    id: "concurrency.upsert-new-id",
    title: `${AT_ONCE} upserts of one new externalUserId at once -> one viewer, created: true in exactly one answer`,
    async run(context) {
      const body = { externalUserId: context.externalUserId("race") };
      const answers = await times(() => context.call({ operationId: "upsertViewer", body }));
      for (const answer of answers) expectSuccess(answer);
      const results = answers.map((answer) => dataOf<UpsertViewerResult>(answer));
      const uids = new Set(results.map((result) => result.viewer.uid));
      ensure(uids.size === 1, `${uids.size} viewers were made: uids ${[...uids].join(", ")}`);
      const created = results.filter((result) => result.created).length;
      ensure(created === 1, `created: true in ${created} of ${AT_ONCE} answers`);
      return undefined;
    },
  },
  {
    id: "concurrency.ticket-exchange",
    title: `one login ticket exchanged ${AT_ONCE} times at once -> one session`,
    async run(context) {
      const exchange = ticketExchange(context);
      if (exchange === undefined) return skip(EXCHANGE_HINT);
      const { loginTicket } = await issueOk(context, await createViewer(context, "exchange-race"));
      const accepted = (await times(() => exchange(context.options.ticketCode, loginTicket))).filter(Boolean).length;
      ensure(accepted === 1, `${accepted} of ${AT_ONCE} exchanges were accepted`);
      return undefined;
    },
  },
];
