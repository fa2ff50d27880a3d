/** What the console's operations need: the services, and the signed-in person when there is one. */
import type { ConsoleLanguage, ConsoleRole } from "../db/schema";
import type { AppServices } from "../services";

/** The signed-in person of a console request. */
export interface ConsolePerson {
  userId: string;
  email: string;
  role: ConsoleRole;
  language: ConsoleLanguage | null;
  merchantId: string;
  merchantName: string;
  /** The hash of this request's session token (sign out ends this one). */
  sessionHash: string;
}

/** One console request: the services, the request's facts, and what its answer sets. */
export interface ConsoleRequest {
  services: AppServices;
  requestId: string;
  /** The client's address (throttling), `unknown` when the transport does not say. */
  clientAddress: string;
  /** Whether the console is served over https (the cookie is then Secure). */
  secure: boolean;
  /** The session token of the request's cookie, if any. */
  sessionToken: string | undefined;
  /** `Set-Cookie` values and other headers the answer carries. */
  answerHeaders: Headers;
}
