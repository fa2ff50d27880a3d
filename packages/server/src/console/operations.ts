/**
 * The console API's operations (console-openapi.yaml), one entry each: who may call it (`public`: anyone, the
 * sign-in steps; `self`: any signed-in person, about themselves; `read`: any role; `change`: OWNER only) and what
 * it does. The table is typed by the document's operation ids, query parameters and request bodies
 * (console-openapi.gen.ts), so an operation without an entry, an entry without an operation, or an entry
 * reading a field its schema does not have fails the build.
 */
import type { operations } from "./console-openapi.gen";
import type { consoleOperations } from "./console-validators.gen.js";
import { ServiceError } from "../errors";
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from "./api-keys";
import { listAuditEvents } from "./audit";
import type { ConsolePerson, ConsoleRequest } from "./context";
import { acceptInvite } from "./invites";
import { describePerson, setLanguage } from "./people";
import { listRequests } from "./request-log/list-requests";
import { endEverySession, endSession } from "./sessions";
import { signIn } from "./sign-in";
import {
  exportViewers,
  getConcurrencySeries,
  getDeviceBreakdown,
  getWatchOverview,
  getWatchTimeDistribution,
  queryViewers,
} from "./watch-data";
import {
  createWebinar,
  finalizeWebinar,
  getWebinar,
  listWebinars,
  runLive,
  setWebinarStatus,
  setWebinarVideos,
} from "./webinars";

export type ConsoleOperationId = keyof typeof consoleOperations;

type BodyOf<Id extends ConsoleOperationId> = operations[Id] extends { requestBody?: { content: infer C } }
  ? C extends { "application/json": infer B }
    ? B
    : never
  : never;
type QueryOf<Id extends ConsoleOperationId> = operations[Id]["parameters"] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;

/** A JSON answer (the envelope's `requestId` is added by the app) or a finished Response (CSV). */
export type ConsoleAnswer = { status: number; body: object } | Response;

/** One call of an operation: the request, its path parameters, query and body, checked against the document. */
export interface ConsoleCall<Id extends ConsoleOperationId> {
  request: ConsoleRequest;
  params: Record<string, string>;
  query: QueryOf<Id>;
  body: BodyOf<Id>;
}

export type Access = "public" | "self" | "read" | "change";

type Entry<Id extends ConsoleOperationId> = Access extends infer A
  ? A extends "public"
    ? { access: A; run: (call: ConsoleCall<Id>) => Promise<ConsoleAnswer> }
    : { access: A; run: (call: ConsoleCall<Id>, person: ConsolePerson) => Promise<ConsoleAnswer> }
  : never;

const ok = (body: object) => ({ status: 200, body });
const created = (body: object) => ({ status: 201, body });

/** The signed-in person as getMe answers it, read anew (after a sign-in, or a language change). */
async function me(request: ConsoleRequest, userId: string) {
  return ok(await describePerson(request.services.db, userId));
}

type WatchRead = (
  services: ConsoleRequest["services"],
  person: ConsolePerson,
  ticketCode: string,
  mode: "LIVE" | "REPLAY" | "ALL",
) => Promise<object>;

/** A watch-data read of one webinar and mode (`{ticketCode}` in the path, `mode` in the query): any role. */
function watchRead<Id extends ConsoleOperationId>(read: WatchRead): Entry<Id> {
  return {
    access: "read",
    run: async ({ request, params, query }, person) =>
      ok(
        await read(
          request.services,
          person,
          params.ticketCode!,
          (query as unknown as { mode: "LIVE" | "REPLAY" | "ALL" }).mode,
        ),
      ),
  } as Entry<Id>;
}

export const consoleTable: { [Id in ConsoleOperationId]: Entry<Id> } = {
  acceptInvite: {
    access: "public",
    run: async ({ request, body }) => me(request, await acceptInvite(request, body.token, body.password)),
  },
  signIn: {
    access: "public",
    run: async ({ request, body }) => me(request, await signIn(request, body.email, body.password)),
  },
  signOut: {
    access: "public",
    run: async ({ request }) => ok({ signedOut: true, sessionsEnded: await endSession(request) }),
  },
  signOutEverywhere: {
    access: "self",
    run: async ({ request }, person) => {
      await endSession(request);
      return ok({ signedOut: true, sessionsEnded: 1 + (await endEverySession(request.services.db, person.userId)) });
    },
  },
  getMe: { access: "self", run: async ({ request }, person) => me(request, person.userId) },
  setLanguage: {
    access: "self",
    run: async ({ request, body }, person) => {
      await setLanguage(request.services.db, person.userId, body.language);
      return me(request, person.userId);
    },
  },
  listApiKeys: { access: "read", run: async ({ request }, person) => ok(await listApiKeys(request.services, person)) },
  createApiKey: {
    access: "change",
    run: async ({ request }, person) => created(await createApiKey(request.services, person)),
  },
  revokeApiKey: {
    access: "change",
    run: async ({ request, params }, person) => ok(await revokeApiKey(request.services, person, params.apiKey!)),
  },
  rollApiKey: {
    access: "change",
    run: async ({ request, params, body }, person) =>
      created(await rollApiKey(request.services, person, params.apiKey!, body.graceSeconds)),
  },
  listAuditEvents: {
    access: "read",
    run: async ({ request, query }, person) =>
      ok(await listAuditEvents(request.services.db, person.merchantId, query.cursor)),
  },
  listRequests: {
    access: "read",
    run: async ({ request, query }, person) => ok(await listRequests(request.services.db, person.merchantId, query)),
  },
  listWebinars: {
    access: "read",
    run: async ({ request, query }, person) => ok(await listWebinars(request.services, person, query.cursor)),
  },
  createWebinar: {
    access: "change",
    run: async ({ request, body }, person) => created(await createWebinar(request.services, person, body)),
  },
  getWebinar: {
    access: "read",
    run: async ({ request, params }, person) => ok(await getWebinar(request.services, person, params.ticketCode!)),
  },
  setWebinarStatus: {
    access: "change",
    run: async ({ request, params, body }, person) =>
      ok(await setWebinarStatus(request.services, person, params.ticketCode!, body.status)),
  },
  runLive: {
    access: "change",
    run: async ({ request, params, body }, person) =>
      ok(await runLive(request.services, person, params.ticketCode!, body.action)),
  },
  finalizeWebinar: {
    access: "change",
    run: async ({ request, params }, person) => ok(await finalizeWebinar(request.services, person, params.ticketCode!)),
  },
  setWebinarVideos: {
    access: "change",
    run: async ({ request, params, body }, person) =>
      ok(await setWebinarVideos(request.services, person, params.ticketCode!, body)),
  },
  getWatchOverview: watchRead(getWatchOverview),
  getConcurrencySeries: watchRead(getConcurrencySeries),
  getWatchTimeDistribution: watchRead(getWatchTimeDistribution),
  getDeviceBreakdown: watchRead(getDeviceBreakdown),
  queryViewers: {
    access: "read",
    run: async ({ request, params, body }, person) =>
      ok(await queryViewers(request.services, person, params.ticketCode!, body)),
  },
  exportViewers: {
    access: "read",
    run: async ({ request, params, query }, person) =>
      exportViewers(request.services, person, params.ticketCode!, query.mode),
  },
};

/** 403 for a person whose role may not run an operation of this access. */
export function checkRole(access: Access, person: ConsolePerson): void {
  if (access === "change" && person.role !== "OWNER")
    throw new ServiceError("CONSOLE_FORBIDDEN", "an ANALYST reads only; ask an OWNER to make this change");
}
