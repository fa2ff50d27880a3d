/**
 * Merchants are isolated: the API key determines the merchant, viewer mappings and phones are per merchant, and a
 * webinar of another merchant is treated as nonexistent (404 `WEBINAR_NOT_FOUND`). These checks need a second
 * merchant's key (`secondMerchant`); without it they are skipped.
 */
import { ensure, expectError, skip, type Check } from "../check";
import type { Credentials } from "../options";
import type { RunContext } from "../run-context";
import { createViewer, upsertOk } from "./viewers";

const isolationCheck = (
  id: string,
  title: string,
  run: (context: RunContext, second: Credentials) => Promise<string | undefined>,
): Check => ({
  id: `isolation.${id}`,
  title,
  async run(context) {
    const second = context.options.secondMerchant;
    if (second === undefined)
      return skip("needs a second merchant's key: pass --second-api-key and --second-api-secret");
    return run(context, second);
  },
});

export const isolationChecks: Check[] = [
  isolationCheck(
    "viewer-mapping",
    "the same externalUserId under another merchant -> a viewer of its own, created: true",
    async (context, second) => {
      const viewer = await createViewer(context, "shared-id");
      const other = await upsertOk(context, { externalUserId: viewer.externalUserId }, second);
      ensure(other.created, "created is false: the second merchant found the first merchant's viewer");
      return undefined;
    },
  ),
  isolationCheck(
    "phone",
    "a phone bound under one merchant is free under another -> bound, no conflict",
    async (context, second) => {
      const phone = context.phone();
      await createViewer(context, "phone-first", { phone });
      const other = await createViewer(context, "phone-second", { phone }, second);
      ensure(other.phone === phone, `the second merchant's viewer has phone ${other.phone}`);
      return undefined;
    },
  ),
  isolationCheck(
    "webinar-overview",
    "the overview of another merchant's webinar -> 404 WEBINAR_NOT_FOUND",
    async (context, second) => {
      const answer = await context.call({
        operationId: "getWatchOverview",
        body: { ticketCode: context.options.ticketCode, playbackMode: "ALL" },
        credentials: second,
      });
      expectError(answer, 404, ["WEBINAR_NOT_FOUND"]);
      return undefined;
    },
  ),
  isolationCheck(
    "webinar-query",
    "the detail query of another merchant's webinar -> 404 WEBINAR_NOT_FOUND",
    async (context, second) => {
      const answer = await context.call({
        operationId: "queryViewerWatch",
        body: {
          ticketCode: context.options.ticketCode,
          playbackMode: "REPLAY",
          sort: "WATCH_SECONDS_DESC",
          pageSize: 10,
        },
        credentials: second,
      });
      expectError(answer, 404, ["WEBINAR_NOT_FOUND"]);
      return undefined;
    },
  ),
  isolationCheck(
    "webinar-ticket",
    "a login ticket for another merchant's webinar -> 404 WEBINAR_NOT_FOUND",
    async (context, second) => {
      const viewer = await createViewer(context, "ticket-second", {}, second);
      const answer = await context.call({
        operationId: "issueLoginTicket",
        body: { uid: viewer.uid, ticketCode: context.options.ticketCode },
        credentials: second,
      });
      expectError(answer, 404, ["WEBINAR_NOT_FOUND"]);
      return undefined;
    },
  ),
];
