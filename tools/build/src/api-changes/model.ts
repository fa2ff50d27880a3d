/**
 * The vocabulary of the API-change checker: where a change is, whom it breaks, and the release it needs.
 *
 * Each change is judged twice, for clients (the merchant backends that call the API) and for servers (every
 * implementation of it, the reference server and those built on the validator). Values flow from clients to
 * servers in requests and back in responses, so a rule that accepts fewer values breaks the side that sends them:
 * a narrowed request breaks clients, a widened response breaks clients, and the mirror images break servers.
 *
 * The release a change needs: `major` when it breaks clients; `minor` when it changes the contract otherwise (an
 * addition clients may ignore, or a rule servers must now follow); `patch` when only documentation changed.
 */

/** Which way the values of a schema flow. */
export type Direction = "request" | "response";

/** How a rule's accepted values relate after the change to before it. */
export type Relation = "same" | "narrowed" | "widened" | "changed";

/** Two relations of parts of one rule as the relation of the whole. */
export function combine(left: Relation, right: Relation): Relation {
  if (left === "same") return right;
  if (right === "same" || right === left) return left;
  return "changed";
}

export type Impact = "breaking" | "compatible";

/** A release level, lowest first. */
export const LEVELS = ["none", "patch", "minor", "major"] as const;
export type Level = (typeof LEVELS)[number];

export const higherLevel = (left: Level, right: Level): Level =>
  LEVELS.indexOf(left) >= LEVELS.indexOf(right) ? left : right;

/** Where a finding was seen: an operation's request or response, a field in it, or the document itself. */
export interface Place {
  /** operationId, or "" for the document. */
  operation: string;
  direction?: Direction | undefined;
  /** HTTP status of a response, such as "200". */
  status?: string | undefined;
  /** Field path inside the body, such as `data.items[].uid`; "" for the body itself. */
  field: string;
}

/** One difference found by the walk, before equal findings of shared schemas are merged. */
export interface Finding {
  rule: string;
  place: Place;
  /** JSON pointer (in the changed document) of the definition holding the changed keyword; findings merge by it. */
  definition: string;
  what: string;
  clients: Impact;
  servers: Impact;
  /** True for a change of documentation only (descriptions, examples, code samples). */
  documentation?: boolean;
}

/** One API change as reported: where, what, whom it breaks and the release it needs. */
export interface ApiChange {
  rule: string;
  where: string;
  what: string;
  clients: Impact;
  servers: Impact;
  level: Exclude<Level, "none">;
}

/** Whom a rule's change breaks, by the direction its values flow. */
export function impactOf(direction: Direction, relation: Relation): Pick<Finding, "clients" | "servers"> {
  if (relation === "changed") return { clients: "breaking", servers: "breaking" };
  if (relation === "same") return { clients: "compatible", servers: "compatible" };
  const sendersBreak = relation === "narrowed";
  const clientsSend = direction === "request";
  return sendersBreak === clientsSend
    ? { clients: "breaking", servers: "compatible" }
    : { clients: "compatible", servers: "breaking" };
}

export const levelOf = (finding: Pick<Finding, "clients" | "documentation">): ApiChange["level"] =>
  finding.documentation === true ? "patch" : finding.clients === "breaking" ? "major" : "minor";
