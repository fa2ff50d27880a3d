/**
 * The watch page's ticket exchange, where one-time use, expiry and invalidation of a login ticket show: the URL
 * of `sessionUrl` (`POST {ticketCode, loginTicket}`, 2xx accepted and 4xx refused) or the setup's
 * `exchangeLoginTicket` hook.
 */
import { CheckFailure } from "../check";
import type { RunContext } from "../run-context";

export type ExchangeTicket = (ticketCode: string, loginTicket: string) => Promise<boolean>;

export const EXCHANGE_HINT =
  "needs the watch page's ticket exchange: pass --session-url, or a setup with exchangeLoginTicket";

/** How this run exchanges tickets, or `undefined` when it cannot. */
export function ticketExchange(context: RunContext): ExchangeTicket | undefined {
  const { sessionUrl, setup } = context.options;
  if (sessionUrl !== undefined)
    return async (ticketCode, loginTicket) => {
      const answer = await context.postJson(sessionUrl, { ticketCode, loginTicket });
      if (answer.status >= 200 && answer.status < 300) return true;
      if (answer.status >= 400 && answer.status < 500) return false;
      throw new CheckFailure(`the ticket exchange answered ${answer.status}, neither accepted (2xx) nor refused (4xx)`);
    };
  const hook = setup.exchangeLoginTicket;
  if (hook === undefined) return undefined;
  return async (ticketCode, loginTicket) => {
    try {
      return await hook.call(setup, ticketCode, loginTicket);
    } catch (error) {
      throw new CheckFailure(`the setup hook exchangeLoginTicket failed: ${(error as Error).message}`);
    }
  };
}
