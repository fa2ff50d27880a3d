/**
 * The Login ticket lifecycle where it needs more than one webinar or a wait: a ticket issued for another webinar
 * invalidates the viewer's earlier unused ticket (made with the setup's webinars), and a ticket past its
 * `expiresAt` is refused (the check waits out the server's ticket lifetime, which the setup states).
 */
import type { LoginTicket } from "@org/webinar-types";
import { dataOf, ensure, expectSuccess, skip, type Check } from "../check";
import type { Credentials } from "../credentials";
import type { RunContext } from "../run-context";
import { ownMerchant, SETUP_HINT, withSetup } from "./setup-needs";
import { EXCHANGE_HINT, ticketExchange } from "./ticket-exchange";
import { createViewer } from "./viewers";

/** The longest ticket lifetime the expiry check waits out. */
const MAX_WAIT_SECONDS = 120;

async function issued(context: RunContext, credentials: Credentials, uid: number, ticketCode: string) {
  const answer = await context.call({ operationId: "issueLoginTicket", body: { uid, ticketCode }, credentials });
  expectSuccess(answer);
  return dataOf<LoginTicket>(answer);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const ticketLifecycleChecks: Check[] = [
  {
    id: "tickets.exchange.superseded-other-webinar",
    title: "a ticket issued for another webinar invalidates the viewer's earlier unused ticket",
    run: withSetup(["createMerchant", "createWebinar"], async (context, hooks) => {
      const exchange = ticketExchange(context);
      if (exchange === undefined) return skip(EXCHANGE_HINT);
      const merchant = await ownMerchant(context, hooks, "tickets");
      const first = await hooks.createWebinar(merchant.merchantId, "PUBLISHED");
      const second = await hooks.createWebinar(merchant.merchantId, "PUBLISHED");
      const { uid } = await createViewer(context, "superseded-other", {}, merchant.credentials);
      const earlier = await issued(context, merchant.credentials, uid, first);
      const newer = await issued(context, merchant.credentials, uid, second);
      ensure(!(await exchange(first, earlier.loginTicket)), "the earlier ticket, for the first webinar, was accepted");
      ensure(await exchange(second, newer.loginTicket), "the newer ticket, for the second webinar, was refused");
      return undefined;
    }),
  },
  {
    id: "tickets.exchange.expired",
    title: "expiresAt is the server's ticket lifetime ahead; a ticket past its expiresAt is refused",
    async run(context) {
      const lifetime = context.options.setup.ticketLifetimeSeconds;
      if (lifetime === undefined) return skip(`needs the server's ticketLifetimeSeconds: ${SETUP_HINT}`);
      if (lifetime > MAX_WAIT_SECONDS)
        return skip(`a ticket lifetime of ${lifetime} s is longer than the ${MAX_WAIT_SECONDS} s this check waits`);
      const exchange = ticketExchange(context);
      if (exchange === undefined) return skip(EXCHANGE_HINT);
      const viewer = await createViewer(context, "expiry");
      const ticket = await issued(context, context.options.main, viewer.uid, context.options.ticketCode);
      const ahead = (Date.parse(ticket.expiresAt) - context.clock.now()) / 1000;
      // Two seconds of slack: the server's clock is known from a Date header of whole seconds.
      ensure(
        Math.abs(ahead - lifetime) <= 2,
        `expiresAt ${ticket.expiresAt} is ${ahead.toFixed(1)} s ahead, not the ticket lifetime of ${lifetime} s`,
      );
      await sleep(Math.max(0, Date.parse(ticket.expiresAt) - context.clock.now()) + 1500);
      ensure(
        !(await exchange(context.options.ticketCode, ticket.loginTicket)),
        "a ticket past its expiresAt was accepted",
      );
      return `waited ${Math.round(ahead + 1.5)} s`;
    },
  },
];
