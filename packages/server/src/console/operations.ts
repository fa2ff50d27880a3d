/**
 * The console API's operations (console-openapi.yaml), one entry each: who may call it (`public`: anyone, the
 * sign-in steps; `self`: any signed-in person, about themselves; `read`: any role; `change`: OWNER only), what more
 * it needs (`recentPassword`: the password entered within the last minutes; `whileEnrolling`: allowed to a person
 * who must turn on two-step sign-in first; `whileSuspended`: allowed while the merchant is suspended) and what it
 * does. The table is typed by the document's operation ids, query parameters and request bodies
 * (@org/webinar-console-contract), so an operation without an entry, an entry without an operation, or an entry
 * reading a field its schema does not have fails the build.
 */
import { type AnswerBody, created, ok, type SuccessAnswer } from "../http/typed-answer";
import type { operations } from "@org/webinar-console-contract";
import type { consoleOperations } from "@org/webinar-console-contract/validators";
import { ServiceError } from "../errors";
import { rfc3339 } from "../http/rfc3339";
import { acceptInvite } from "../people/invites";
import { describePerson, setLanguage } from "../people/profile";
import {
  endEverySession,
  endSessionById,
  listSessions,
  notePasswordEntered,
  recentSignInUntil,
  requireRecentPassword,
} from "../people/sessions";
import { confirmPassword, signIn, type SignInContext } from "../people/sign-in";
import {
  changePersonRole,
  invitePerson,
  listPeople,
  removePerson,
  renewInvite,
  type TeamContext,
} from "../people/team";
import {
  confirmEnrollment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  setTwoFactorRequirement,
  startEnrollment,
} from "../people/two-factor";
import type { AppServices } from "../services";
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from "./api-keys";
import { listAuditEvents } from "./audit";
import type { ConsolePerson, ConsoleRequest } from "./context";
import { listRequests } from "./request-log/list-requests";
import { clearSessionCookie, endSession, startSession } from "./sessions";
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

/**
 * A JSON answer with one of the operation's success statuses and the body the document gives it (the envelope's
 * `requestId` is added by the app), or a finished Response (CSV).
 */
export type ConsoleAnswer<Id extends ConsoleOperationId = ConsoleOperationId> =
  | SuccessAnswer<operations[Id]>
  | Response;

/** One call of an operation: the request, its path parameters, query and body, checked against the document. */
export interface ConsoleCall<Id extends ConsoleOperationId> {
  request: ConsoleRequest;
  params: Record<string, string>;
  query: QueryOf<Id>;
  body: BodyOf<Id>;
}

export type Access = "public" | "self" | "read" | "change";

/** What an operation with a session needs besides its role. */
export interface SessionRules {
  /** The password entered in this session within the last minutes (403 CONSOLE_REAUTHENTICATION_REQUIRED). */
  recentPassword?: true;
  /** Allowed to a person who must turn on two-step sign-in first (others: 403 CONSOLE_TWO_FACTOR_ENROLLMENT_REQUIRED). */
  whileEnrolling?: true;
  /** Allowed while the merchant is suspended (others: 403 TENANT_SUSPENDED). */
  whileSuspended?: true;
}

type Entry<Id extends ConsoleOperationId> = Access extends infer A
  ? A extends "public"
    ? { access: A; run: (call: ConsoleCall<Id>) => Promise<ConsoleAnswer<Id>> }
    : SessionRules & { access: A; run: (call: ConsoleCall<Id>, person: ConsolePerson) => Promise<ConsoleAnswer<Id>> }
  : never;

/** The signed-in person as getMe answers it, read anew (after a sign-in, or a change of their settings). */
async function me(request: ConsoleRequest, person: Pick<ConsolePerson, "userId" | "passwordEnteredAt">) {
  return ok(await describePerson(request.services.db, person.userId, person.passwordEnteredAt));
}

/** Starts a session for the person, who just entered their password (its cookie on the answer), and answers getMe's. */
async function signedIn(request: ConsoleRequest, userId: string) {
  await startSession(request, userId);
  return me(request, { userId, passwordEnteredAt: request.services.runtime.now() });
}

function signInContext(services: AppServices): SignInContext {
  return { db: services.db, runtime: services.runtime, passwords: services.passwords, secretBox: services.secretBox };
}

function teamContext(request: ConsoleRequest): TeamContext {
  const { db, runtime, config } = request.services;
  return { db, runtime, inviteTtlSeconds: config.consoleInviteTtlSeconds, origin: request.origin };
}

/** A read of one webinar's watch data, answering the 200 body of its operation. */
/** The console's reads of one webinar's watch data by mode. */
type WatchReadId = "getWatchOverview" | "getConcurrencySeries" | "getWatchTimeDistribution" | "getDeviceBreakdown";

type WatchRead<Id extends ConsoleOperationId> = (
  services: ConsoleRequest["services"],
  person: ConsolePerson,
  ticketCode: string,
  mode: "LIVE" | "REPLAY" | "ALL",
) => Promise<AnswerBody<operations[Id], 200>>;

/**
 * A watch-data read of one webinar and mode (`{ticketCode}` in the path, `mode` in the query): any role. A chart
 * (`heavy`) runs in one of the merchant's slots for exports and charts.
 */
function watchRead<Id extends WatchReadId>(read: WatchRead<Id>, { heavy }: { heavy: boolean }): Entry<Id> {
  return {
    access: "read",
    run: async ({ request, params, query }, person) => {
      const mode = (query as unknown as { mode: "LIVE" | "REPLAY" | "ALL" }).mode;
      const run = () => read(request.services, person, params.ticketCode!, mode);
      const body = await (heavy ? request.heavyReads.run(person.merchantId, run) : run());
      return { status: 200, body } as ConsoleAnswer<Id>;
    },
  } as Entry<Id>;
}

export const consoleTable: { [Id in ConsoleOperationId]: Entry<Id> } = {
  acceptInvite: {
    access: "public",
    run: async ({ request, body }) => {
      const { db, runtime, passwords } = request.services;
      return signedIn(request, await acceptInvite({ db, runtime, passwords }, body.token, body.password));
    },
  },
  signIn: {
    access: "public",
    run: async ({ request, body }) =>
      signedIn(request, await signIn(signInContext(request.services), body, request.clientAddress)),
  },
  signOut: {
    access: "self",
    whileEnrolling: true,
    whileSuspended: true,
    run: async ({ request }) => ok({ signedOut: true, sessionsEnded: await endSession(request) }),
  },
  signOutEverywhere: {
    access: "self",
    whileEnrolling: true,
    run: async ({ request }, person) => {
      await endSession(request);
      return ok({ signedOut: true, sessionsEnded: 1 + (await endEverySession(request.services.db, person.userId)) });
    },
  },
  getMe: { access: "self", whileEnrolling: true, run: async ({ request }, person) => me(request, person) },
  setLanguage: {
    access: "self",
    whileEnrolling: true,
    run: async ({ request, body }, person) => {
      await setLanguage(request.services.db, person.userId, body.language);
      return me(request, person);
    },
  },
  confirmPassword: {
    access: "self",
    whileEnrolling: true,
    run: async ({ request, body }, person) => {
      const { db, runtime } = request.services;
      await confirmPassword(signInContext(request.services), person, body.password, request.clientAddress);
      const now = runtime.now();
      await notePasswordEntered(db, person.sessionHash, now);
      return ok({ recentSignInUntil: rfc3339(recentSignInUntil({ passwordEnteredAt: now })) });
    },
  },
  listSessions: {
    access: "self",
    whileEnrolling: true,
    run: async ({ request }, person) =>
      ok({ items: await listSessions(request.services.db, person, request.services.runtime.now()) }),
  },
  endSession: {
    access: "self",
    whileEnrolling: true,
    run: async ({ request, params }, person) => {
      const sessionId = params.sessionId!;
      const { ended, current } = await endSessionById(request.services.db, person, sessionId);
      if (!ended) throw new ServiceError("CONSOLE_SESSION_NOT_FOUND", "no such session of yours; it may have ended");
      if (current) clearSessionCookie(request);
      return ok({ sessionId, signedOut: current });
    },
  },
  startTwoFactorEnrollment: {
    access: "self",
    whileEnrolling: true,
    recentPassword: true,
    run: async ({ request }, person) => ok(await startEnrollment(request.services, person)),
  },
  confirmTwoFactorEnrollment: {
    access: "self",
    whileEnrolling: true,
    run: async ({ request, body }, person) =>
      ok({ recoveryCodes: await confirmEnrollment(request.services, person, body.code) }),
  },
  disableTwoFactor: {
    access: "self",
    recentPassword: true,
    run: async ({ request }, person) => ok(await disableTwoFactor(request.services, person)),
  },
  regenerateRecoveryCodes: {
    access: "self",
    recentPassword: true,
    run: async ({ request }, person) =>
      ok({ recoveryCodes: await regenerateRecoveryCodes(request.services, person.userId) }),
  },
  listPeople: {
    access: "read",
    run: async ({ request }, person) => ok(await listPeople(request.services.db, person.merchantId)),
  },
  invitePerson: {
    access: "change",
    recentPassword: true,
    run: async ({ request, body }, person) => created(await invitePerson(teamContext(request), person, body)),
  },
  renewInvite: {
    access: "change",
    recentPassword: true,
    run: async ({ request, params }, person) =>
      created(await renewInvite(teamContext(request), person, params.userId!)),
  },
  changePersonRole: {
    access: "change",
    recentPassword: true,
    run: async ({ request, params, body }, person) =>
      ok(await changePersonRole(teamContext(request), person, params.userId!, body.role)),
  },
  removePerson: {
    access: "change",
    recentPassword: true,
    run: async ({ request, params }, person) => {
      const removed = await removePerson(request.services, person, params.userId!);
      // An OWNER who removed themselves was signed out with their other sessions.
      if (removed.userId === person.userId) clearSessionCookie(request);
      return ok(removed);
    },
  },
  setTwoFactorRequirement: {
    access: "change",
    recentPassword: true,
    run: async ({ request, body }, person) =>
      ok(await setTwoFactorRequirement(request.services, person, body.required)),
  },
  listApiKeys: { access: "read", run: async ({ request }, person) => ok(await listApiKeys(request.services, person)) },
  createApiKey: {
    access: "change",
    recentPassword: true,
    run: async ({ request }, person) => created(await createApiKey(request.services, person)),
  },
  revokeApiKey: {
    access: "change",
    run: async ({ request, params }, person) => ok(await revokeApiKey(request.services, person, params.apiKey!)),
  },
  rollApiKey: {
    access: "change",
    recentPassword: true,
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
  getWatchOverview: watchRead<"getWatchOverview">(getWatchOverview, { heavy: false }),
  getConcurrencySeries: watchRead<"getConcurrencySeries">(getConcurrencySeries, { heavy: true }),
  getWatchTimeDistribution: watchRead<"getWatchTimeDistribution">(getWatchTimeDistribution, { heavy: true }),
  getDeviceBreakdown: watchRead<"getDeviceBreakdown">(getDeviceBreakdown, { heavy: true }),
  queryViewers: {
    access: "read",
    run: async ({ request, params, body }, person) =>
      ok(await queryViewers(request.services, person, params.ticketCode!, body)),
  },
  exportViewers: {
    access: "read",
    run: async ({ request, params, query }, person) =>
      exportViewers(
        request.services,
        person,
        params.ticketCode!,
        query.mode,
        await request.heavyReads.acquire(person.merchantId),
      ),
  },
};

/**
 * The checks of a signed-in person before an operation runs, in this order: the merchant's suspension, two-step
 * enrollment, the role, a recent password.
 */
export function checkPerson(entry: SessionRules & { access: Access }, person: ConsolePerson, nowMs: number): void {
  if (person.merchantSuspended && entry.whileSuspended !== true)
    throw new ServiceError(
      "TENANT_SUSPENDED",
      "this merchant is suspended; its console opens again when the operator reactivates it",
    );
  if (person.twoFactorRequired && !person.twoFactorEnabled && entry.whileEnrolling !== true)
    throw new ServiceError(
      "CONSOLE_TWO_FACTOR_ENROLLMENT_REQUIRED",
      "this merchant requires two-step sign-in: turn it on first (startTwoFactorEnrollment)",
    );
  if (entry.access === "change" && person.role !== "OWNER")
    throw new ServiceError("CONSOLE_FORBIDDEN", "an ANALYST reads only; ask an OWNER to make this change");
  if (entry.recentPassword === true) requireRecentPassword(person, nowMs);
}
