/**
 * Structured JSON logs (pino). Credentials never reach a log (spec §4.4 rule 3, CONTRIBUTING.md): the code logs
 * chosen fields only, pino's `redact` censors the known credential fields wherever they appear in a logged
 * object, and a last filter on every written line replaces anything shaped like a login ticket, a session token,
 * a `login_ticket=` fragment, a bearer token or a signature header, in case one slipped into a message.
 */
import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger };

const REDACTED = "[REDACTED]";

/** Field paths censored by pino wherever they are logged. */
export const REDACT_PATHS = [
  "secret",
  "*.secret",
  "loginTicket",
  "*.loginTicket",
  "loginUrl",
  "*.loginUrl",
  "ticket",
  "*.ticket",
  "sessionToken",
  "*.sessionToken",
  "signature",
  "*.signature",
  "authorization",
  "*.authorization",
  "cookie",
  "*.cookie",
  'headers["x-signature"]',
  'headers["authorization"]',
  'headers["cookie"]',
  'headers["set-cookie"]',
  '*.headers["x-signature"]',
  '*.headers["authorization"]',
  '*.headers["cookie"]',
  '*.headers["set-cookie"]',
];

// Credential shapes of this server and of the spec: `lt_`/`ws_` + 43 base64url characters, the URL fragment that
// carries a ticket, bearer tokens, and an X-Signature header value written out.
const CREDENTIAL_SHAPES: readonly [RegExp, string][] = [
  [/\b(lt|ws)_[A-Za-z0-9_-]{20,}/g, `$1_${REDACTED}`],
  [/login_ticket=[^"\s&\\]+/g, `login_ticket=${REDACTED}`],
  [/(Bearer\s+)[^"\s\\]+/gi, `$1${REDACTED}`],
  [/(x-signature["':=\s]+)[0-9a-f]{64}/gi, `$1${REDACTED}`],
];

/** Replaces credential-shaped substrings of one log line. */
export function scrubCredentials(line: string): string {
  let out = line;
  for (const [shape, replacement] of CREDENTIAL_SHAPES) out = out.replace(shape, replacement);
  return out;
}

/**
 * @example
 * const logger = createLogger("info"); // JSON lines on stdout
 * const captured = createLogger("debug", myWritableStream); // tests read what was logged
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "webinar-server" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: { streamWrite: scrubCredentials },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
