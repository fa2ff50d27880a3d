/**
 * The console's webinar operations, on the signed-in person's merchant only (a webinar of another merchant is 404
 * WEBINAR_NOT_FOUND, exactly as an unknown code). Changes run the admin API's own operations (admin/webinars.ts,
 * admin/live.ts) once ownership is established, so the lifecycle rules are the same everywhere, and each is
 * audited.
 */
import type { operations } from "./console-openapi.gen";
import { applyLiveAction, finalizeLiveData } from "../admin/live";
import {
  createWebinar as createAdminWebinar,
  setWebinarStatus as setAdminWebinarStatus,
  setWebinarVideo,
  type CreateWebinarInput,
  type WebinarVideoInput,
} from "../admin/webinars";
import type { AdminContext } from "../admin/context";
import type { LiveAction, WebinarStatus } from "../db/schema";
import { ServiceError } from "../errors";
import type { AppServices } from "../services";
import { rfc3339 } from "../tickets/issue";
import { recordAudit, type AuditAction } from "./audit";
import type { ConsolePerson } from "./context";
import { decodeCursor, encodeCursor } from "./page-cursor";

type WebinarPage = Omit<operations["listWebinars"]["responses"]["200"]["content"]["application/json"], "requestId">;
export type ConsoleWebinar = WebinarPage["items"][number];

const PAGE_SIZE = 100;

const notFound = (ticketCode: string) =>
  new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode} in this merchant`);

function adminContext(services: AppServices): AdminContext {
  return {
    db: services.db,
    runtime: services.runtime,
    apiKeys: services.apiKeys,
    changes: services.changes,
    finalizeGraceSeconds: services.config.finalizeGraceSeconds,
    consoleInviteTtlSeconds: services.config.consoleInviteTtlSeconds,
  };
}

const WEBINAR_COLUMNS = [
  "id",
  "ticket_code",
  "title",
  "status",
  "live_status",
  "live_video_url",
  "replay_video_url",
  "created_at",
  "live_finalized_at",
] as const;

type WebinarRow = {
  ticket_code: string;
  title: string | null;
  status: WebinarStatus;
  live_status: ConsoleWebinar["liveStatus"];
  live_video_url: string | null;
  replay_video_url: string | null;
  created_at: Date | string;
  live_finalized_at: Date | string | null;
};

function toWebinar(row: WebinarRow, watchOrigin: string): ConsoleWebinar {
  return {
    ticketCode: row.ticket_code,
    title: row.title,
    status: row.status,
    liveStatus: row.live_status,
    liveVideoUrl: row.live_video_url,
    replayVideoUrl: row.replay_video_url,
    watchUrl: `${watchOrigin}/w/${row.ticket_code}`,
    createdAt: rfc3339(new Date(row.created_at).getTime()),
    finalizedAt: row.live_finalized_at === null ? null : rfc3339(new Date(row.live_finalized_at).getTime()),
  };
}

export async function listWebinars(
  services: AppServices,
  person: ConsolePerson,
  cursor: string | undefined,
): Promise<WebinarPage> {
  const after = decodeCursor(cursor, ["string", "string"]);
  let query = services.db
    .selectFrom("webinars")
    .select(WEBINAR_COLUMNS)
    .where("merchant_id", "=", person.merchantId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(PAGE_SIZE + 1);
  if (after !== undefined) {
    const [createdAt, id] = after as [string, string];
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", new Date(createdAt)),
        eb.and([eb("created_at", "=", new Date(createdAt)), eb("id", "<", id)]),
      ]),
    );
  }
  const rows = await query.execute();
  const origin = await services.watchDomains.originFor(person.merchantId);
  const items = rows.slice(0, PAGE_SIZE).map((row) => toWebinar(row, origin));
  const last = rows[PAGE_SIZE - 1];
  return rows.length > PAGE_SIZE && last !== undefined
    ? { items, nextCursor: encodeCursor([new Date(last.created_at).toISOString(), last.id]) }
    : { items };
}

/** The person's webinar, or 404. */
export async function getWebinar(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
): Promise<{ webinar: ConsoleWebinar }> {
  const row = await services.db
    .selectFrom("webinars")
    .select(WEBINAR_COLUMNS)
    .where("ticket_code", "=", ticketCode)
    .where("merchant_id", "=", person.merchantId)
    .executeTakeFirst();
  if (row === undefined) throw notFound(ticketCode);
  return { webinar: toWebinar(row, await services.watchDomains.originFor(person.merchantId)) };
}

/** Runs `change` on the person's webinar (404 for another merchant's), audits it, and answers the webinar after. */
async function changeWebinar(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  audit: { action: AuditAction; details: Record<string, unknown> },
  change: (ctx: AdminContext) => Promise<unknown>,
): Promise<{ webinar: ConsoleWebinar }> {
  await getWebinar(services, person, ticketCode);
  const result = await change(adminContext(services));
  await recordAudit(services.db, person, services.runtime.now(), {
    action: audit.action,
    target: ticketCode,
    details: { ...audit.details, ...(typeof result === "object" && result !== null ? result : {}) },
  });
  return getWebinar(services, person, ticketCode);
}

export async function createWebinar(
  services: AppServices,
  person: ConsolePerson,
  input: CreateWebinarInput,
): Promise<{ webinar: ConsoleWebinar }> {
  const { ticketCode } = await createAdminWebinar(adminContext(services), person.merchantId, input);
  await recordAudit(services.db, person, services.runtime.now(), {
    action: "WEBINAR_CREATED",
    target: ticketCode,
    details: { title: input.title ?? null, status: input.status ?? "PUBLISHED" },
  });
  return getWebinar(services, person, ticketCode);
}

export const setWebinarStatus = (
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  status: WebinarStatus,
) =>
  changeWebinar(services, person, ticketCode, { action: "WEBINAR_STATUS_SET", details: { status } }, (ctx) =>
    setAdminWebinarStatus(ctx, ticketCode, status),
  );

export const setWebinarVideos = (
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  input: WebinarVideoInput,
) =>
  changeWebinar(services, person, ticketCode, { action: "WEBINAR_VIDEOS_SET", details: {} }, (ctx) =>
    setWebinarVideo(ctx, ticketCode, input),
  );

export const runLive = (services: AppServices, person: ConsolePerson, ticketCode: string, action: LiveAction) =>
  changeWebinar(services, person, ticketCode, { action: "LIVE_ACTION", details: { action } }, (ctx) =>
    applyLiveAction(ctx, ticketCode, action),
  );

export const finalizeWebinar = (services: AppServices, person: ConsolePerson, ticketCode: string) =>
  changeWebinar(services, person, ticketCode, { action: "LIVE_DATA_FINALIZED", details: {} }, (ctx) =>
    finalizeLiveData(ctx, ticketCode),
  );
