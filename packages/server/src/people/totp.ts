/**
 * Two-step sign-in codes: TOTP (RFC 6238, SHA-1, 6 digits, 30-second steps) through the `otpauth` library, and
 * the QR code of a secret's `otpauth://` URL through `qrcode`. A code of the step before or after the current one
 * is accepted too (a phone's clock a little off, a code typed as it changed); the step a code belongs to is
 * answered so the caller can refuse a code of a step already used (replay).
 */
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import type { Runtime } from "../runtime";

const ISSUER = "Webinar console";
const PERIOD_SECONDS = 30;

function totpOf(secretBase32: string, account: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: account,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new secret of 20 random bytes (the size RFC 4226 recommends), in base32. */
export function newTotpSecret(runtime: Pick<Runtime, "randomBytes">): string {
  return new Secret({ buffer: new Uint8Array(runtime.randomBytes(20)).buffer }).base32;
}

/** The `otpauth://totp/...` URL authenticator apps read, for `account` (the person's email). */
export function totpUrl(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/** The QR code of `url` as an SVG image in a `data:` URL (the console page's policy allows `data:` images). */
export async function qrCodeDataUrl(url: string): Promise<string> {
  const svg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
}

/**
 * The step (Unix time / 30 s) of `code` if it is the code of the current step, the one before or the one after;
 * undefined otherwise.
 */
export function totpStep(secretBase32: string, code: string, nowMs: number): number | undefined {
  const delta = totpOf(secretBase32, "").validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? undefined : Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
}
