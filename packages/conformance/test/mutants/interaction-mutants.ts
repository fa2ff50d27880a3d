/**
 * Broken servers of the kit's third pass: a login ticket for another merchant's viewer, a server error for an
 * ordinary display name, and one that only model-based testing finds: the old phone of a rebind is released for
 * new viewers but not for existing ones, an interaction of the rebind rule and the conflict rule that no fixed
 * check walks through.
 */
import { randomBytes } from "node:crypto";
import type { Mutation, ProxyAnswer } from "./mutating-proxy";
import { errorAnswer, errorCodeOf, header, isOperation, jsonOf, memoryMap, memorySet } from "./mutation-helpers";

/** A ticket answer as the reference server renders one, for a ticket that was never issued. */
function madeUpTicket(ticketCode: unknown): ProxyAnswer {
  const loginTicket = `lt_${randomBytes(16).toString("hex")}`;
  const expiresAt = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, "Z");
  const json = {
    requestId: `req_${randomBytes(8).toString("hex")}`,
    data: { loginTicket, loginUrl: `http://127.0.0.1/w/${String(ticketCode)}#login_ticket=${loginTicket}`, expiresAt },
  };
  return { status: 200, headers: { "content-type": "application/json" }, json, text: JSON.stringify(json) };
}

const viewerOf = (answer: ProxyAnswer) =>
  (answer.json as { data?: { viewer?: { uid: number; externalUserId: string; phone: string | null } } }).data?.viewer;

/** As a mutant of mutants.ts: a name, the rule it breaks, the check that must fail, and the proxy's mutation. */
interface InteractionMutant {
  name: string;
  rule: string;
  killedBy: string;
  mutation: Mutation;
}

export const interactionMutants: InteractionMutant[] = [
  {
    name: "ticket-for-other-merchants-viewer",
    rule: "a login ticket only for a viewer of the calling merchant (404 VIEWER_NOT_FOUND for another merchant's uid)",
    killedBy: "isolation.ticket-viewer-of-other-merchant",
    mutation: {
      answer(answer, request, state) {
        const apiKey = header(request, "x-api-key") ?? "";
        const owners = memoryMap<string[]>(state, "uid-owners");
        const viewer = isOperation(request, "upsertViewer") && answer.status === 200 ? viewerOf(answer) : undefined;
        if (viewer !== undefined) owners.set(String(viewer.uid), [...(owners.get(String(viewer.uid)) ?? []), apiKey]);
        if (!isOperation(request, "issueLoginTicket") || errorCodeOf(answer) !== "VIEWER_NOT_FOUND") return answer;
        const body = jsonOf(request);
        const known = owners.get(String(body?.uid)) ?? [];
        return known.some((owner) => owner !== apiKey) ? madeUpTicket(body?.ticketCode) : answer;
      },
    },
  },
  {
    name: "server-error-for-ordinary-name",
    rule: "a valid display name is accepted (here one with a digit and a q, as in Qin 2, is a 500)",
    killedBy: "fuzz.upsertViewer",
    mutation: {
      async request(request) {
        const name = isOperation(request, "upsertViewer") ? jsonOf(request)?.displayName : undefined;
        if (typeof name === "string" && /\d/.test(name) && /q/i.test(name))
          return { answer: errorAnswer(500, "INTERNAL_ERROR") };
        return request;
      },
    },
  },
  {
    name: "released-phone-refused-to-existing-viewer",
    rule: "a rebind releases the old phone, for an existing viewer too (here only new viewers may bind it)",
    killedBy: "model.sequences",
    mutation: {
      async request(request, state) {
        const body = isOperation(request, "upsertViewer") ? jsonOf(request) : undefined;
        const apiKey = header(request, "x-api-key") ?? "";
        const phoneOf = memoryMap<string | null>(state, "phone-of");
        const current = phoneOf.get(`${apiKey} ${String(body?.externalUserId)}`);
        const wanted = body?.phone;
        if (current === undefined || typeof wanted !== "string" || wanted === current) return request;
        const released = memorySet(state, "released");
        return released.has(`${apiKey} ${wanted}`) ? { answer: errorAnswer(409, "VIEWER_IDENTITY_CONFLICT") } : request;
      },
      answer(answer, request, state) {
        const viewer = isOperation(request, "upsertViewer") && answer.status === 200 ? viewerOf(answer) : undefined;
        if (viewer === undefined) return answer;
        const apiKey = header(request, "x-api-key") ?? "";
        const phoneOf = memoryMap<string | null>(state, "phone-of");
        const before = phoneOf.get(`${apiKey} ${viewer.externalUserId}`);
        if (before && before !== viewer.phone) memorySet(state, "released").add(`${apiKey} ${before}`);
        phoneOf.set(`${apiKey} ${viewer.externalUserId}`, viewer.phone);
        return answer;
      },
    },
  },
];
