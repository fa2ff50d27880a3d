/**
 * The states a client cannot make but must be judged by, made with the setup hooks, each in a merchant of the
 * run's own: a revoked key is 401 `OPEN_API_UNAUTHORIZED`; a suspended merchant is 403 `TENANT_SUSPENDED` on every
 * operation until it is reactivated; a draft, hidden or suspended webinar issues no login ticket (404
 * `WEBINAR_NOT_FOUND`), whether it was created so or moved there; a display name with a blocked term is 400
 * `CONTENT_SENSITIVE`.
 */
import { randomBytes } from "node:crypto";
import { operations, type OperationId } from "@org/webinar-types";
import type { Answer } from "../answer";
import { dataOf, expectError, expectSuccess, type Check } from "../check";
import type { Credentials } from "../credentials";
import type { RunContext } from "../run-context";
import type { WebinarState } from "../setup-hooks";
import { ownMerchant, withSetup, type HooksOf } from "./setup-needs";
import { createViewer } from "./viewers";

/** A request of `operationId` that a merchant with `ticketCode` and a viewer `uid` answers with success. */
function bodyFor(operationId: OperationId, context: RunContext, ticketCode: string, uid: number): unknown {
  switch (operationId) {
    case "upsertViewer":
      return { externalUserId: context.externalUserId("state") };
    case "issueLoginTicket":
      return { uid, ticketCode };
    case "getWatchOverview":
      return { ticketCode, playbackMode: "REPLAY" };
    case "queryViewerWatch":
      return { ticketCode, playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 1 };
  }
}

const callAs = (context: RunContext, credentials: Credentials, operationId: OperationId, body: unknown) =>
  context.call({ operationId, body, credentials });

/** A published webinar and a viewer of the merchant, made once for the checks that name `purpose`. */
function merchantWithWebinar(context: RunContext, hooks: HooksOf<"createMerchant" | "createWebinar">, purpose: string) {
  return context.once(`webinar:${purpose}`, async () => {
    const merchant = await ownMerchant(context, hooks, purpose);
    const ticketCode = await hooks.createWebinar(merchant.merchantId, "PUBLISHED");
    const viewer = await createViewer(context, `${purpose}-viewer`, {}, merchant.credentials);
    return { merchant, ticketCode, uid: viewer.uid };
  });
}

const keyChecks: Check[] = [
  {
    id: "state.key.revoked",
    title: "a revoked API key -> 401 OPEN_API_UNAUTHORIZED on every operation; the merchant's other key still works",
    run: withSetup(["createMerchant", "createWebinar", "createApiKey", "revokeApiKey"], async (context, hooks) => {
      const { merchant, ticketCode, uid } = await merchantWithWebinar(context, hooks, "revoked-key");
      const revoked = await hooks.createApiKey(merchant.merchantId);
      const probeBody = bodyFor("upsertViewer", context, ticketCode, uid);
      expectSuccess(await callAs(context, revoked, "upsertViewer", probeBody), "a success with the new key");
      await hooks.revokeApiKey(revoked.apiKey);
      for (const operationId of Object.keys(operations) as OperationId[])
        expectError(await callAs(context, revoked, operationId, bodyFor(operationId, context, ticketCode, uid)), 401, [
          "OPEN_API_UNAUTHORIZED",
        ]);
      expectSuccess(
        await callAs(context, merchant.credentials, "upsertViewer", probeBody),
        "a success with the key kept",
      );
      return undefined;
    }),
  },
  {
    id: "state.merchant.suspended",
    title: "a suspended merchant -> 403 TENANT_SUSPENDED on every operation; reactivated -> served again",
    run: withSetup(["createMerchant", "createWebinar", "setMerchantStatus"], async (context, hooks) => {
      const { merchant, ticketCode, uid } = await merchantWithWebinar(context, hooks, "suspended-merchant");
      await hooks.setMerchantStatus(merchant.merchantId, "SUSPENDED");
      for (const operationId of Object.keys(operations) as OperationId[]) {
        const body = bodyFor(operationId, context, ticketCode, uid);
        expectError(await callAs(context, merchant.credentials, operationId, body), 403, ["TENANT_SUSPENDED"]);
      }
      await hooks.setMerchantStatus(merchant.merchantId, "ACTIVE");
      const body = bodyFor("getWatchOverview", context, ticketCode, uid);
      expectSuccess(await callAs(context, merchant.credentials, "getWatchOverview", body), "a success once active");
      return undefined;
    }),
  },
];

const issueAs = (context: RunContext, credentials: Credentials, uid: number, ticketCode: string): Promise<Answer> =>
  callAs(context, credentials, "issueLoginTicket", { uid, ticketCode });

const webinarStateCheck = (state: Exclude<WebinarState, "PUBLISHED">): Check => ({
  id: `state.webinar.${state.toLowerCase()}`,
  title: `a ${state} webinar, created so or moved there from PUBLISHED -> login ticket 404 WEBINAR_NOT_FOUND; published again -> issued`,
  run: withSetup(["createMerchant", "createWebinar", "setWebinarState"], async (context, hooks) => {
    const { merchant, uid } = await merchantWithWebinar(context, hooks, "webinar-states");
    const { credentials } = merchant;
    const created = await hooks.createWebinar(merchant.merchantId, state);
    expectError(await issueAs(context, credentials, uid, created), 404, ["WEBINAR_NOT_FOUND"]);
    const moved = await hooks.createWebinar(merchant.merchantId, "PUBLISHED");
    expectSuccess(await issueAs(context, credentials, uid, moved), "a ticket for the webinar while PUBLISHED");
    await hooks.setWebinarState(moved, state);
    expectError(await issueAs(context, credentials, uid, moved), 404, ["WEBINAR_NOT_FOUND"]);
    await hooks.setWebinarState(moved, "PUBLISHED");
    expectSuccess(await issueAs(context, credentials, uid, moved), "a ticket once PUBLISHED again");
    return undefined;
  }),
});

/** One term for every run, so kits running at once against one server agree on the blocked list. */
const BLOCKED_TERM = "conformanceblockedterm";

const moderationCheck: Check = {
  id: "state.display-name.blocked-term",
  title: "a display name containing a blocked term -> 400 CONTENT_SENSITIVE; another name -> accepted",
  run: withSetup(["blockDisplayNameTerms"], async (context, hooks) => {
    await hooks.blockDisplayNameTerms([BLOCKED_TERM]);
    const externalUserId = context.externalUserId("moderated");
    const blocked = await context.call({
      operationId: "upsertViewer",
      body: { externalUserId, displayName: `Ann ${BLOCKED_TERM}${randomBytes(2).toString("hex")}` },
    });
    expectError(blocked, 400, ["CONTENT_SENSITIVE"]);
    const fine = await context.call({ operationId: "upsertViewer", body: { externalUserId, displayName: "Ann" } });
    expectSuccess(fine, "a success for a name without the term");
    return `viewer ${dataOf<{ viewer: { uid: number } }>(fine).viewer.uid}`;
  }),
};

export const stateRuleChecks: Check[] = [
  ...keyChecks,
  webinarStateCheck("DRAFT"),
  webinarStateCheck("HIDDEN"),
  webinarStateCheck("SUSPENDED"),
  moderationCheck,
];
