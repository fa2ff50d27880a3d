/**
 * The admin API's routes, derived from admin-openapi.yaml: every operation of the document is registered from
 * admin-validators.gen.js with its method and path, and its body is checked by the validator precompiled from
 * the document's schema before the handler runs. The handler table is typed by the document's operation ids, so
 * an operation without a handler (or a handler without an operation) fails the build.
 */
import type { LiveAction, MerchantStatus, WebinarStatus } from "../db/schema";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import type { AppServices } from "../services";
import { adminOperations } from "./admin-validators.gen.js";
import { authorizeAdmin } from "./authorize";
import { replaceBlockedTerms } from "./blocked-terms";
import { checkBody, type AdminOperationId } from "./body-check";
import type { AdminContext } from "./context";
import { applyLiveAction, finalizeLiveData } from "./live";
import { createApiKey, createMerchant, revokeApiKey, setMerchantStatus } from "./merchants";
import { importPlaybackSession, type ImportPlaybackSessionInput } from "./playback";
import { TICKET_CODE_SHAPE } from "../tickets/ticket-code";
import {
  createWebinar,
  setWebinarStatus,
  setWebinarVideo,
  type CreateWebinarInput,
  type WebinarVideoInput,
} from "./webinars";

// Bodies reach the handlers only after checkBody accepted them against the operation's schema.
// biome-ignore lint/suspicious/noExplicitAny: each handler reads the fields its own schema guarantees.
type Body = any;
type Handler = (
  ctx: AdminContext,
  params: Record<string, string>,
  body: Body,
) => Promise<{ status: number; body: object }>;

const ok = (body: object) => ({ status: 200, body });
const created = (body: object) => ({ status: 201, body });

const handlers: Record<AdminOperationId, Handler> = {
  createMerchant: async (ctx, _params, body: { name: string; watchOrigin?: string }) =>
    created(await createMerchant(ctx, body)),
  setMerchantStatus: async (ctx, params, body: { status: MerchantStatus }) =>
    ok(await setMerchantStatus(ctx, params.merchantId!, body.status)),
  createApiKey: async (ctx, params) => created(await createApiKey(ctx, params.merchantId!)),
  revokeApiKey: async (ctx, params) => ok(await revokeApiKey(ctx, params.apiKey!)),
  createWebinar: async (ctx, params, body: CreateWebinarInput) =>
    created(await createWebinar(ctx, params.merchantId!, body)),
  setWebinarStatus: async (ctx, params, body: { status: WebinarStatus }) =>
    ok(await setWebinarStatus(ctx, params.ticketCode!, body.status)),
  setWebinarVideo: async (ctx, params, body: WebinarVideoInput) =>
    ok(await setWebinarVideo(ctx, params.ticketCode!, body)),
  applyLiveAction: async (ctx, params, body: { action: LiveAction }) =>
    ok(await applyLiveAction(ctx, params.ticketCode!, body.action)),
  finalizeLiveData: async (ctx, params) => ok(await finalizeLiveData(ctx, params.ticketCode!)),
  importPlaybackSession: async (ctx, params, body: ImportPlaybackSessionInput) =>
    created(await importPlaybackSession(ctx, params.ticketCode!, body)),
  replaceBlockedTerms: async (ctx, _params, body: { terms: string[] }) =>
    ok(await replaceBlockedTerms(ctx, body.terms)),
};

function invalid(
  errors: { pointer: string; rule: string; message: string }[],
  message = "request body is invalid",
): ServiceError {
  return new ServiceError("REQUEST_INVALID", message, { errors });
}

/** Parses the admin body: JSON object, `application/json`; an empty body is `{}`. */
function parseBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === "") return {};
  if (!/^application\/json\s*(;|$)/i.test(contentType ?? ""))
    throw invalid([{ pointer: "", rule: "contentType", message: "Content-Type must be application/json" }]);
  try {
    return JSON.parse(text);
  } catch {
    throw invalid([{ pointer: "", rule: "json", message: "the body is not valid JSON" }]);
  }
}

/** Hono path of a document path: `/admin/v1/merchants/{merchantId}` -> `/admin/v1/merchants/:merchantId`. */
function honoPath(path: string): string {
  return path.replace(/\{([A-Za-z]+)\}/g, ":$1");
}

export type AdminRunner = (
  operationId: AdminOperationId,
  params: Record<string, string>,
  text: string,
  contentType: string | undefined,
  authorization: string | undefined,
) => Promise<{ status: number; body: object }>;

/** Authorizes, parses and checks the body, and runs the operation; storage outages answer 503 STORAGE_UNAVAILABLE. */
export function createAdminRunner(services: AppServices): AdminRunner {
  const ctx: AdminContext = {
    db: services.db,
    runtime: services.runtime,
    apiKeys: services.apiKeys,
    finalizeGraceSeconds: services.config.finalizeGraceSeconds,
  };
  return async (operationId, params, text, contentType, authorization) => {
    authorizeAdmin(authorization, services.config.adminToken);
    if (params.ticketCode !== undefined && !TICKET_CODE_SHAPE.test(params.ticketCode)) {
      throw new ServiceError("WEBINAR_NOT_FOUND", "no webinar with this ticketCode");
    }
    const body = parseBody(text, contentType);
    const issues = checkBody(operationId, body);
    if (issues.length > 0) throw invalid(issues);
    return dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", () =>
      handlers[operationId](ctx, params, body),
    );
  };
}

/** Every admin operation's method and Hono path, in document order. */
export function adminRoutes(): { operationId: AdminOperationId; method: string; path: string }[] {
  return (Object.keys(adminOperations) as AdminOperationId[]).map((operationId) => ({
    operationId,
    method: adminOperations[operationId].method,
    path: honoPath(adminOperations[operationId].path),
  }));
}
