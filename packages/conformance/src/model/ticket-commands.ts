/**
 * Login tickets as model commands. Issuing: a merchant asks a ticket for the uid of one of its viewers, or of the
 * other merchant's (404 `VIEWER_NOT_FOUND` unless it has a viewer with that very uid), for one of its webinars (404
 * `WEBINAR_NOT_FOUND` unless published); a success supersedes the viewer's earlier unused ticket, for any
 * webinar. Exchanging: a ticket is accepted exactly when the model holds it valid. Moving a webinar between
 * published and hidden goes through the setup hook.
 */
import type fc from "fast-check";
import type { LoginTicket } from "@org/webinar-types";
import { CheckFailure, dataOf, expectError, expectOneOf, expectSuccess } from "../check";
import { supersede, viewerWithUid, type Model } from "./model";
import { note, send, type Real } from "./real";

/** A ticket this close to its expiresAt may expire on the way: its exchange is not judged. */
const EXPIRY_MARGIN_MS = 1500;

export interface IssueParams {
  merchant: number;
  key: string;
  /** The uid of the other merchant's viewer with `key`, not the merchant's own. */
  othersViewer: boolean;
  webinar: number;
}

export class IssueTicketCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly params: IssueParams) {}

  /** Only uids the model knows: a viewer with `key` exists where the uid is taken from. */
  check(model: Model): boolean {
    const { merchant, key, othersViewer, webinar } = this.params;
    const source = model.merchants[othersViewer ? 1 - merchant : merchant]!;
    return source.viewers.has(key) && webinar < model.merchants[merchant]!.webinars.length;
  }

  async run(model: Model, real: Real): Promise<void> {
    const { merchant: index, key, othersViewer, webinar } = this.params;
    const merchant = model.merchants[index]!;
    const uid = model.merchants[othersViewer ? 1 - index : index]!.viewers.get(key)!.uid;
    const ticketCode = real.merchants[index]!.ticketCodes[webinar]!;
    const answer = await send(real, index, "issueLoginTicket", { uid, ticketCode });
    const owner = viewerWithUid(merchant, uid);
    const published = merchant.webinars[webinar]!.published;
    if (owner === undefined && !published)
      return expectOneOf(answer, [[404, ["VIEWER_NOT_FOUND", "WEBINAR_NOT_FOUND"]]]);
    if (owner === undefined) return expectError(answer, 404, ["VIEWER_NOT_FOUND"]);
    if (!published) return expectError(answer, 404, ["WEBINAR_NOT_FOUND"]);
    expectSuccess(answer);
    const ticket = dataOf<LoginTicket>(answer);
    supersede(model, index, owner.key);
    const label = `T${model.tickets.length + 1}`;
    model.tickets.push({
      label,
      merchant: index,
      viewerKey: owner.key,
      webinar,
      state: "valid",
      expiresAtMs: Date.parse(ticket.expiresAt),
    });
    real.tickets.set(label, ticket.loginTicket);
    note(real, { issued: label, for: `${merchant.label}/${owner.key}`, webinar: merchant.webinars[webinar]!.label });
  }

  toString(): string {
    const { merchant, key, othersViewer, webinar } = this.params;
    return `ticket(${"AB"[merchant]}, ${othersViewer ? "other merchant's " : ""}${key}, W${webinar + 1})`;
  }
}

export class ExchangeCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}

  check(model: Model): boolean {
    return model.tickets.length > 0;
  }

  async run(model: Model, real: Real): Promise<void> {
    const ticket = model.tickets[this.pick % model.tickets.length]!;
    const merchant = real.merchants[ticket.merchant]!;
    const webinar = model.merchants[ticket.merchant]!.webinars[ticket.webinar]!;
    const ticketCode = merchant.ticketCodes[ticket.webinar]!;
    const accepted = await real.exchange!(ticketCode, real.tickets.get(ticket.label)!);
    note(real, { exchange: ticket.label, webinar: webinar.label, accepted });
    // Near its expiry, or for a webinar no longer published, the watch page may refuse: not judged.
    const judged =
      ticket.state !== "unknown" &&
      webinar.published &&
      ticket.expiresAtMs - real.context.clock.now() > EXPIRY_MARGIN_MS;
    if (judged && accepted !== (ticket.state === "valid"))
      throw new CheckFailure(
        `ticket ${ticket.label} (${ticket.state === "valid" ? "valid" : ticket.state === "used" ? "already exchanged" : "superseded by a newer ticket"}) was ${accepted ? "accepted" : "refused"}`,
      );
    ticket.state = accepted ? "used" : judged ? ticket.state : "unknown";
  }

  toString(): string {
    return `exchange(ticket #${this.pick})`;
  }
}

export class WebinarStateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly params: { merchant: number; webinar: number; published: boolean }) {}

  check(model: Model): boolean {
    return this.params.webinar < model.merchants[this.params.merchant]!.webinars.length;
  }

  async run(model: Model, real: Real): Promise<void> {
    const { merchant, webinar, published } = this.params;
    const ticketCode = real.merchants[merchant]!.ticketCodes[webinar]!;
    const state = published ? "PUBLISHED" : "HIDDEN";
    await real.context.options.setup.setWebinarState!(ticketCode, state);
    const target = model.merchants[merchant]!.webinars[webinar]!;
    note(real, { setup: "setWebinarState", webinar: target.label, state });
    target.published = published;
  }

  toString(): string {
    const { merchant, webinar, published } = this.params;
    return `webinar(${"AB"[merchant]}/W${webinar + 1} ${published ? "PUBLISHED" : "HIDDEN"})`;
  }
}
