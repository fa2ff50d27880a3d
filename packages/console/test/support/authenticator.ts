/**
 * An authenticator app, as the test's own: the codes of a TOTP secret (RFC 6238: SHA-1, 6 digits, 30-second steps)
 * computed with otpauth, the library the server checks them with. The server takes each step's code once, so every
 * code asked for here is of a step after the one before (the server accepts the step after the current one).
 */
import { Secret, TOTP } from "otpauth";

const PERIOD_SECONDS = 30;

export function authenticator(secretBase32: string): { nextCode(): string } {
  const totp = new TOTP({
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
  let lastStep = -1;
  return {
    nextCode() {
      const step = Math.max(Math.floor(Date.now() / 1000 / PERIOD_SECONDS), lastStep + 1);
      lastStep = step;
      return totp.generate({ timestamp: step * PERIOD_SECONDS * 1000 });
    },
  };
}
