/**
 * Merchants are isolated: the API key determines the merchant, viewer mappings and phones are per merchant, a
 * viewer of another merchant is no viewer (404 `VIEWER_NOT_FOUND` for a login ticket), and a webinar of another
 * merchant is treated as nonexistent (404 `WEBINAR_NOT_FOUND`). Most of these checks need a second merchant's key
 * (`secondMerchant`) and are skipped without it; the ticket for another merchant's viewer needs a merchant with a
 * published webinar and no viewers at all, which only the setup hooks can make.
 */
import { CheckFailure, ensure, expectError, expectOneOf, skip, type Check } from "../check";
import type { Credentials } from "../credentials";
import type { RunContext } from "../run-context";
import { ownMerchant, withSetup } from "./setup-needs";
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

/**
 * A merchant of the run's own with a published webinar and no viewer: every uid is another merchant's there, so
 * its login ticket for a viewer of the main (or the second) merchant must be 404 `VIEWER_NOT_FOUND`.
 */
const ticketForOtherMerchantsViewer: Check = {
  id: "isolation.ticket-viewer-of-other-merchant",
  title: "a login ticket for a uid only another merchant has -> 404 VIEWER_NOT_FOUND",
  run: withSetup(["createMerchant", "createWebinar"], async (context, hooks) => {
    const empty = await ownMerchant(context, hooks, "no-viewers");
    const ticketCode = await hooks.createWebinar(empty.merchantId, "PUBLISHED");
    const owners: Array<[string, Credentials | undefined]> = [["the main merchant", undefined]];
    if (context.options.secondMerchant !== undefined)
      owners.push(["the second merchant", context.options.secondMerchant]);
    for (const [owner, credentials] of owners) {
      const viewer = await createViewer(context, "other-merchant-viewer", {}, credentials);
      const answer = await context.call({
        operationId: "issueLoginTicket",
        body: { uid: viewer.uid, ticketCode },
        credentials: empty.credentials,
      });
      try {
        expectError(answer, 404, ["VIEWER_NOT_FOUND"]);
      } catch (error) {
        throw new CheckFailure(
          `uid ${viewer.uid} of ${owner}, asked by a merchant without viewers: ${(error as Error).message}`,
        );
      }
    }
    return undefined;
  }),
};

export const isolationChecks: Check[] = [
  ticketForOtherMerchantsViewer,
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
    "phone-rebind",
    "a viewer rebinds to a phone another merchant's viewer holds -> bound, no conflict",
    async (context, second) => {
      const phone = context.phone();
      await createViewer(context, "rebind-holder", { phone }, second);
      const viewer = await createViewer(context, "rebind-mover", { phone: context.phone() });
      const moved = await upsertOk(context, { externalUserId: viewer.externalUserId, phone });
      ensure(moved.viewer.phone === phone, `the viewer kept phone ${moved.viewer.phone} instead of binding ${phone}`);
      return undefined;
    },
  ),
  isolationCheck(
    "ticket-all-other",
    "a login ticket for another merchant's viewer and webinar -> 404 VIEWER_NOT_FOUND or WEBINAR_NOT_FOUND",
    async (context, second) => {
      const viewer = await createViewer(context, "ticket-all-other");
      const answer = await context.call({
        operationId: "issueLoginTicket",
        body: { uid: viewer.uid, ticketCode: context.options.ticketCode },
        credentials: second,
      });
      expectOneOf(answer, [[404, ["VIEWER_NOT_FOUND", "WEBINAR_NOT_FOUND"]]]);
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
