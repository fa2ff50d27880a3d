/** The admin API's bearer token check, in constant time (hashes of equal length compared with timingSafeEqual). */
import { hash, timingSafeEqual } from "node:crypto";
import { ServiceError } from "../errors";

const digest = (text: string) => hash("sha256", text, "buffer");

/** Throws ADMIN_UNAUTHORIZED unless `authorization` is `Bearer <token>`; always throws when no token is configured. */
export function authorizeAdmin(authorization: string | undefined, token: string | undefined): void {
  if (token === undefined)
    throw new ServiceError(
      "ADMIN_UNAUTHORIZED",
      "the admin API is disabled: start the server with WEBINAR_ADMIN_TOKEN set",
    );
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? "");
  if (match === null || !timingSafeEqual(digest(match[1]!), digest(token))) {
    throw new ServiceError("ADMIN_UNAUTHORIZED", "missing or wrong admin bearer token");
  }
}
