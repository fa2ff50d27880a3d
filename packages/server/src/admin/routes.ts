/**
 * The admin API's routes, derived from admin-openapi.yaml: every operation of the document is registered from
 * admin-validators.gen.js with its method and path, and its body is checked by the validator precompiled from
 * the document's schema before the handler runs. The handler table is typed by the document's operation ids and
 * request bodies (admin-openapi.gen.ts), so an operation without a handler, a handler without an operation, or a
 * handler reading a field its schema does not have fails the build.
 */
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import { bodyChecker, invalidBody } from "../http/body-check";
import { parseJsonBody } from "../http/json-body";
import { created, ok, type SuccessAnswer } from "../http/typed-answer";
import type { AppServices } from "../services";
import { TICKET_CODE_SHAPE } from "../tickets/ticket-code";
import type { operations } from "@org/webinar-admin-contract";
import {
  adminBodyValidators,
  type adminOperations,
  adminPatternMessages,
} from "@org/webinar-admin-contract/validators";
import { authorizeAdmin } from "./authorize";
import { replaceBlockedTerms } from "./blocked-terms";
import type { AdminContext } from "./context";
import { finalizeLiveData } from "../watch-data/finalize-live-data";
import { applyLiveAction } from "../webinars/live-lifecycle";
import { createApiKey, createMerchant, revokeApiKey, setMerchantStatus } from "../merchants/merchants";
import { importPlaybackSession } from "./playback";
import { createWebinar, setWebinarStatus, setWebinarVideo } from "../webinars/webinar-changes";
import { createInvite } from "../people/invites";
import { listConsoleUsers, removeConsoleUser } from "../people/team";

/** An admin operation id, as admin-openapi.yaml names it. */
export type AdminOperationId = keyof typeof adminOperations;

/** The request body of an operation, as its schema describes it. */
type AdminBody<Id extends AdminOperationId> = NonNullable<operations[Id]["requestBody"]>["content"]["application/json"];

/** An answer of an admin operation: one of its success statuses with the body the document gives it. */
export type AdminAnswer<Id extends AdminOperationId = AdminOperationId> = SuccessAnswer<operations[Id]>;
type Handler<Id extends AdminOperationId> = (
  ctx: AdminContext & { origin: string },
  params: Record<string, string>,
  body: AdminBody<Id>,
) => Promise<AdminAnswer<Id>>;

// Bodies reach the handlers only after the body check accepted them against the operation's schema.
const handlers: { [Id in AdminOperationId]: Handler<Id> } = {
  createMerchant: async (ctx, _params, body) => created(await createMerchant(ctx, body)),
  setMerchantStatus: async (ctx, params, body) => ok(await setMerchantStatus(ctx, params.merchantId!, body.status)),
  createApiKey: async (ctx, params) => created(await createApiKey(ctx, params.merchantId!)),
  revokeApiKey: async (ctx, params) => ok(await revokeApiKey(ctx, params.apiKey!)),
  createConsoleUser: async (ctx, params, body) =>
    created(
      await createInvite(
        { db: ctx.db, runtime: ctx.runtime, ttlSeconds: ctx.consoleInviteTtlSeconds, origin: ctx.origin },
        params.merchantId!,
        body,
      ),
    ),
  listConsoleUsers: async (ctx, params) => ok(await listConsoleUsers(ctx.db, params.merchantId!)),
  removeConsoleUser: async (ctx, params) => ok(await removeConsoleUser(ctx, params.merchantId!, params.userId!)),
  createWebinar: async (ctx, params, body) => created(await createWebinar(ctx, params.merchantId!, body)),
  setWebinarStatus: async (ctx, params, body) => ok(await setWebinarStatus(ctx, params.ticketCode!, body.status)),
  setWebinarVideo: async (ctx, params, body) => ok(await setWebinarVideo(ctx, params.ticketCode!, body)),
  applyLiveAction: async (ctx, params, body) => ok(await applyLiveAction(ctx, params.ticketCode!, body.action)),
  finalizeLiveData: async (ctx, params) => ok(await finalizeLiveData(ctx, params.ticketCode!)),
  importPlaybackSession: async (ctx, params, body) =>
    created(await importPlaybackSession(ctx, params.ticketCode!, body)),
  replaceBlockedTerms: async (ctx, _params, body) => ok(await replaceBlockedTerms(ctx, body.terms)),
};

const checkAdminBody = bodyChecker({ validators: adminBodyValidators, patternMessages: adminPatternMessages });

/** Parses the admin body: an empty body is `{}`, anything else JSON (http/json-body.ts). */
function parseBody(text: string, contentType: string | undefined): unknown {
  return text.trim() === "" ? {} : parseJsonBody(text, contentType);
}

export type AdminRunner = (
  /** The services as the request uses them (`requestServices`, services.ts). */
  services: AppServices,
  operationId: AdminOperationId,
  params: Record<string, string>,
  text: string,
  contentType: string | undefined,
  authorization: string | undefined,
  /** The server's origin as this request reached it (invite links, unless WEBINAR_PUBLIC_ORIGIN is set). */
  requestOrigin: string,
) => Promise<AdminAnswer>;

/** Authorizes, parses and checks the body, and runs the operation; storage outages answer 503 STORAGE_UNAVAILABLE. */
export const runAdmin: AdminRunner = async (
  services,
  operationId,
  params,
  text,
  contentType,
  authorization,
  requestOrigin,
) => {
  const ctx: AdminContext = {
    db: services.db,
    runtime: services.runtime,
    apiKeys: services.apiKeys,
    changes: services.changes,
    finalizeGraceSeconds: services.config.finalizeGraceSeconds,
    consoleInviteTtlSeconds: services.config.consoleInviteTtlSeconds,
  };
  authorizeAdmin(authorization, services.config.adminToken);
  if (params.ticketCode !== undefined && !TICKET_CODE_SHAPE.test(params.ticketCode)) {
    throw new ServiceError("WEBINAR_NOT_FOUND", "no webinar with this ticketCode");
  }
  const body = parseBody(text, contentType);
  if (operationId in adminBodyValidators) {
    const issues = checkAdminBody(operationId as keyof typeof adminBodyValidators, body);
    if (issues.length > 0) throw invalidBody(issues);
  } else if (text.trim() !== "")
    throw invalidBody([{ pointer: "", rule: "body", message: "this operation takes no body" }]);
  const handler = handlers[operationId] as (
    ctx: AdminContext & { origin: string },
    params: Record<string, string>,
    body: unknown,
  ) => Promise<AdminAnswer>;
  return dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", () =>
    handler({ ...ctx, origin: services.config.publicOrigin ?? requestOrigin }, params, body),
  );
};
