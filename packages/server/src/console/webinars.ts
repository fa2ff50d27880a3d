/**
 * The console's webinar operations, on the signed-in person's merchant only (a webinar of another merchant is 404
 * WEBINAR_NOT_FOUND, exactly as an unknown code). Changes run the same webinar changes as the admin API
 * (webinars/webinar-changes.ts, webinars/live-lifecycle.ts) once ownership is established, so the lifecycle rules
 * are the same everywhere, and each is audited.
 */
import type { operations } from "@org/webinar-console-contract";
import { finalizeLiveData } from "../watch-data/finalize-live-data";
import { applyLiveAction, type LiveContext } from "../webinars/live-lifecycle";
import {
  createWebinar as createNewWebinar,
  setWebinarStatus as changeWebinarStatus,
  setWebinarVideo,
  type CreateWebinarInput,
  type WebinarVideoInput,
} from "../webinars/webinar-changes";
import type { AlongWith } from "../db/along-with";
import type { LiveAction, WebinarStatus } from "../db/schema";
import { ServiceError } from "../errors";
import type { AppServices } from "../services";
import { rfc3339 } from "../http/rfc3339";
import { recordAudit, type AuditAction } from "../merchants/audit-events";
import type { ConsolePerson } from "./context";
import { decodeCursor, encodeCursor } from "./page-cursor";

type WebinarPage = Omit<operations["listWebinars"]["responses"]["200"]["content"]["application/json"], "requestId">;
export type ConsoleWebinar = WebinarPage["items"][number];

const PAGE_SIZE = 100;

const notFound = (ticketCode: string) =>
  new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode} in this merchant`);

function liveContext(services: AppServices): LiveContext {
  return {
    db: services.db,
    runtime: services.runtime,
    changes: services.changes,
    finalizeGraceSeconds: services.config.finalizeGraceSeconds,
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

/**
 * Runs `change` on the person's webinar (404 for another merchant's) with its audit event, which the change writes
 * in its own transaction with what it answered, and answers the webinar after.
 */
async function changeWebinar(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  audit: { action: AuditAction; details: Record<string, unknown> },
  change: (ctx: LiveContext, along: AlongWith<object>) => Promise<unknown>,
): Promise<{ webinar: ConsoleWebinar }> {
  await getWebinar(services, person, ticketCode);
  await change(liveContext(services), (trx, result) =>
    recordAudit(trx, person, services.runtime.now(), {
      action: audit.action,
      target: ticketCode,
      details: { ...audit.details, ...result },
    }),
  );
  return getWebinar(services, person, ticketCode);
}

export async function createWebinar(
  services: AppServices,
  person: ConsolePerson,
  input: CreateWebinarInput,
): Promise<{ webinar: ConsoleWebinar }> {
  const details = { title: input.title ?? null, status: input.status ?? "PUBLISHED" };
  const { ticketCode } = await createNewWebinar(liveContext(services), person.merchantId, input, (trx, created) =>
    recordAudit(trx, person, services.runtime.now(), {
      action: "WEBINAR_CREATED",
      target: created.ticketCode,
      details,
    }),
  );
  return getWebinar(services, person, ticketCode);
}

export const setWebinarStatus = (
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  status: WebinarStatus,
) =>
  changeWebinar(services, person, ticketCode, { action: "WEBINAR_STATUS_SET", details: { status } }, (ctx, along) =>
    changeWebinarStatus(ctx, ticketCode, status, along),
  );

export const setWebinarVideos = (
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  input: WebinarVideoInput,
) =>
  changeWebinar(services, person, ticketCode, { action: "WEBINAR_VIDEOS_SET", details: {} }, (ctx, along) =>
    setWebinarVideo(ctx, ticketCode, input, along),
  );

export const runLive = (services: AppServices, person: ConsolePerson, ticketCode: string, action: LiveAction) =>
  changeWebinar(services, person, ticketCode, { action: "LIVE_ACTION", details: { action } }, (ctx, along) =>
    applyLiveAction(ctx, ticketCode, action, along),
  );

export const finalizeWebinar = (services: AppServices, person: ConsolePerson, ticketCode: string) =>
  changeWebinar(services, person, ticketCode, { action: "LIVE_DATA_FINALIZED", details: {} }, (ctx, along) =>
    finalizeLiveData(ctx, ticketCode, along),
  );
