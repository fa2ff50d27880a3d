/**
 * issueLoginTicket and the Login ticket lifecycle. What any client sees: the ticket and its `loginUrl` (the watch
 * link `/w/{ticketCode}` with the ticket in the fragment `#login_ticket=`, never in the query), an `expiresAt`
 * ahead, a new ticket on every issue, 404 for a viewer or webinar the merchant does not have. One-time use and
 * invalidation by a newer ticket show only where tickets are exchanged, at the watch page, whose exchange the spec
 * leaves to the server: those checks run when `sessionUrl` names it, and are skipped otherwise.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { LoginTicket, Viewer } from "@org/webinar-types";
import type { Answer } from "../answer";
import { dataOf, ensure, expectError, expectSuccess, skip, type Check } from "../check";
import type { RunContext } from "../run-context";
import { EXCHANGE_HINT, ticketExchange, type ExchangeTicket } from "./ticket-exchange";
import { createViewer } from "./viewers";

export async function issue(
  context: RunContext,
  uid: number,
  ticketCode = context.options.ticketCode,
): Promise<Answer> {
  return context.call({ operationId: "issueLoginTicket", body: { uid, ticketCode } });
}

export async function issueOk(context: RunContext, viewer: Viewer): Promise<LoginTicket> {
  const answer = await issue(context, viewer.uid);
  expectSuccess(answer);
  return dataOf<LoginTicket>(answer);
}

/** One ticket of a viewer of its own, shared by the checks that only look at a ticket. */
const sharedTicket = (context: RunContext) =>
  context.once("ticket", async () => issueOk(context, await createViewer(context, "ticket")));

const shapeChecks: Check[] = [
  {
    id: "tickets.issue",
    title: "a viewer of the merchant and its published webinar -> 200 with loginTicket, loginUrl and expiresAt",
    async run(context) {
      await sharedTicket(context);
      return undefined;
    },
  },
  {
    id: "tickets.login-url.fragment",
    title: "loginUrl carries the ticket in its fragment, exactly #login_ticket=<loginTicket>",
    async run(context) {
      const { loginTicket, loginUrl } = await sharedTicket(context);
      const { hash } = new URL(loginUrl);
      const accepted = [`#login_ticket=${loginTicket}`, `#login_ticket=${encodeURIComponent(loginTicket)}`];
      ensure(accepted.includes(hash), "the loginUrl's fragment is not #login_ticket= followed by the loginTicket");
      return undefined;
    },
  },
  {
    id: "tickets.login-url.not-in-query",
    title: "loginUrl never carries the ticket in its query or path",
    async run(context) {
      const { loginTicket, loginUrl } = await sharedTicket(context);
      const url = new URL(loginUrl);
      ensure(!`${url.pathname}${url.search}`.includes(loginTicket), "the loginTicket appears before the fragment");
      ensure(!url.searchParams.has("login_ticket"), "the loginUrl has a login_ticket query parameter");
      return undefined;
    },
  },
  {
    id: "tickets.login-url.watch-link",
    title: "loginUrl is an absolute http(s) URL of the watch link /w/{ticketCode}",
    async run(context) {
      const url = new URL((await sharedTicket(context)).loginUrl);
      ensure(url.protocol === "https:" || url.protocol === "http:", `the loginUrl's scheme is ${url.protocol}`);
      const watchPath = `/w/${context.options.ticketCode}`;
      ensure(
        url.pathname.endsWith(watchPath),
        `the loginUrl's path is ${url.pathname}, not one ending in ${watchPath}`,
      );
      return `${url.origin}${url.pathname}`;
    },
  },
  {
    id: "tickets.expires-at-ahead",
    title: "expiresAt is a UTC time ahead of the server's clock",
    async run(context) {
      const { expiresAt } = await sharedTicket(context);
      const seconds = (Date.parse(expiresAt) - context.clock.now()) / 1000;
      // One second of slack: the clock is estimated from a Date header of whole seconds.
      ensure(seconds > -1, `expiresAt ${expiresAt} is ${-seconds.toFixed(1)} s behind the server's clock`);
      return `valid for about ${Math.round(seconds)} s`;
    },
  },
  {
    id: "tickets.reissue-new-ticket",
    title: "issuing again for the same viewer -> a new ticket, not the earlier one",
    async run(context) {
      const viewer = await createViewer(context, "reissue");
      const first = await issueOk(context, viewer);
      const second = await issueOk(context, viewer);
      ensure(first.loginTicket !== second.loginTicket, "the second ticket equals the first");
      return undefined;
    },
  },
];

const notFoundChecks: Check[] = [
  {
    id: "tickets.viewer-not-found",
    title: "a uid that is no viewer of the merchant -> 404 VIEWER_NOT_FOUND",
    async run(context) {
      // A black box cannot know which uids are free: three random uids, at least one of which should be.
      let last: Answer | undefined;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        last = await issue(context, randomInt(5_000_000, 10_000_000));
        if (last.status !== 200) break;
      }
      expectError(last!, 404, ["VIEWER_NOT_FOUND"]);
      return undefined;
    },
  },
  {
    id: "tickets.webinar-not-found",
    title: "a ticketCode of no webinar -> 404 WEBINAR_NOT_FOUND",
    async run(context) {
      const viewer = await createViewer(context, "no-webinar");
      expectError(await issue(context, viewer.uid, `wc-none-${randomBytes(8).toString("hex")}`), 404, [
        "WEBINAR_NOT_FOUND",
      ]);
      return undefined;
    },
  },
];

const exchangeCheck = (
  id: string,
  title: string,
  run: (context: RunContext, exchange: ExchangeTicket, viewer: Viewer) => Promise<void>,
): Check => ({
  id: `tickets.exchange.${id}`,
  title,
  async run(context) {
    const exchange = ticketExchange(context);
    if (exchange === undefined) return skip(EXCHANGE_HINT);
    await run(context, exchange, await createViewer(context, `exchange-${id}`));
    return undefined;
  },
});

const exchangeChecks: Check[] = [
  exchangeCheck("once", "a ticket is exchanged once: accepted, then refused", async (context, exchange, viewer) => {
    const { loginTicket } = await issueOk(context, viewer);
    ensure(await exchange(context.options.ticketCode, loginTicket), "a fresh ticket was refused");
    ensure(!(await exchange(context.options.ticketCode, loginTicket)), "a used ticket was accepted again");
  }),
  exchangeCheck(
    "superseded",
    "a new ticket for the same viewer invalidates the earlier unused one",
    async (context, exchange, viewer) => {
      const earlier = await issueOk(context, viewer);
      const newer = await issueOk(context, viewer);
      ensure(!(await exchange(context.options.ticketCode, earlier.loginTicket)), "the earlier ticket was accepted");
      ensure(await exchange(context.options.ticketCode, newer.loginTicket), "the newest ticket was refused");
    },
  ),
  exchangeCheck(
    "other-webinar",
    "a ticket is refused for another webinar than its own",
    async (context, exchange, viewer) => {
      const { loginTicket } = await issueOk(context, viewer);
      const other = `wc-none-${randomBytes(8).toString("hex")}`;
      ensure(!(await exchange(other, loginTicket)), "the ticket was accepted for another ticketCode");
    },
  ),
];

export const loginTicketChecks: Check[] = [...shapeChecks, ...notFoundChecks, ...exchangeChecks];
