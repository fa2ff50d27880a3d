/**
 * One-time tokens (login tickets, watch-page sessions): 32 bytes from a CSPRNG as base64url with a short prefix;
 * only their SHA-256 is stored, so a database leak yields no usable ticket or session.
 */
import { hash } from "node:crypto";
import type { Runtime } from "../runtime";

/** Lowercase hex SHA-256 of a token, the form stored and looked up. */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** A new token `<prefix>` + base64url(32 random bytes) and its hash. */
export function newToken(prefix: string, runtime: Pick<Runtime, "randomBytes">): { token: string; hash: string } {
  const token = `${prefix}${runtime.randomBytes(32).toString("base64url")}`;
  return { token, hash: hashToken(token) };
}
