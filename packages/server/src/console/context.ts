/** What the console's operations need: the services, and the signed-in person when there is one. */
import type { ConcurrencyLimit } from "../http/concurrency-limit";
import type { SignedInPerson } from "../people/sessions";
import type { AppServices } from "../services";

/** The signed-in person of a console request. */
export type ConsolePerson = SignedInPerson;

/** One console request: the services, the request's facts, and what its answer sets. */
export interface ConsoleRequest {
  services: AppServices;
  requestId: string;
  /**
   * The client's address (throttling, sessions): the socket's peer, or behind a trusted proxy the address it
   * forwarded (http/client-address.ts); `unknown` when the transport does not say.
   */
  clientAddress: string;
  /** A coarse name of the client's browser and system (people/device-label.ts). */
  device: string;
  /** The server's origin for links it answers (invites): WEBINAR_PUBLIC_ORIGIN, or the one this request reached. */
  origin: string;
  /** Whether the console is served over https (the cookie is then Secure). */
  secure: boolean;
  /** The session token of the request's cookie, if any. */
  sessionToken: string | undefined;
  /** `Set-Cookie` values and other headers the answer carries. */
  answerHeaders: Headers;
  /** This process's bound on each merchant's exports and chart queries running at once. */
  heavyReads: ConcurrencyLimit;
}
