/**
 * The real side of the model-based checks: two merchants of the run's own made by the setup hooks (the first with
 * two published webinars, the second with one), the login tickets issued so far, and the script of every
 * request a sequence made, one readable JSON line each, printed when a sequence fails. Login tickets never reach
 * the script: a ticket is named by its label (`T1`).
 */
import type { OperationId } from "@org/webinar-types";
import { statusLine, type Answer } from "../answer";
import type { HooksOf } from "../checks/setup-needs";
import type { ExchangeTicket } from "../checks/ticket-exchange";
import type { Credentials } from "../credentials";
import type { RunContext } from "../run-context";

/** The hooks the model needs; the others widen the commands it draws. */
export type ModelHooks = HooksOf<"createMerchant" | "createWebinar">;

export interface RealMerchant {
  label: string;
  credentials: Credentials;
  ticketCodes: string[];
}

export interface Real {
  context: RunContext;
  merchants: RealMerchant[];
  /** Phones of this sequence, by index. */
  phones: string[];
  /** Login tickets by label. */
  tickets: Map<string, string>;
  exchange: ExchangeTicket | undefined;
  /** The sequence's requests, one JSON line each. */
  script: string[];
}

/** Webinars each merchant of the model gets. */
export const WEBINARS_PER_MERCHANT = [2, 1] as const;
const PHONES = 2;

/** Fresh merchants and webinars for one sequence, so no sequence sees another's state. */
export async function createReal(
  context: RunContext,
  hooks: ModelHooks,
  exchange: ExchangeTicket | undefined,
): Promise<Real> {
  const merchants: RealMerchant[] = [];
  for (const [index, count] of WEBINARS_PER_MERCHANT.entries()) {
    const merchant = await hooks.createMerchant();
    const ticketCodes: string[] = [];
    for (let webinar = 0; webinar < count; webinar += 1)
      ticketCodes.push(await hooks.createWebinar(merchant.merchantId, "PUBLISHED"));
    merchants.push({ label: String.fromCharCode(65 + index), credentials: merchant.credentials, ticketCodes });
  }
  const phones = Array.from({ length: PHONES }, () => context.phone());
  return { context, merchants, phones, tickets: new Map(), exchange, script: [] };
}

/** Adds a line to the script: what was done and, once known, what came back. */
export function note(real: Real, line: Record<string, unknown>): void {
  real.script.push(JSON.stringify(line));
}

/** One signed call as merchant `merchant`, written to the script with its answer's status and code. */
export async function send(real: Real, merchant: number, operationId: OperationId, body: unknown): Promise<Answer> {
  const { label, credentials } = real.merchants[merchant]!;
  const answer = await real.context.call({ operationId, body, credentials });
  note(real, { merchant: label, operation: operationId, body, answered: statusLine(answer) });
  return answer;
}
