/**
 * Logs through pino: one JSON object per line for machines, or readable lines for a person at a terminal
 * (`WEBINAR_LOG_FORMAT`, by default readable on a terminal and JSON otherwise), coloured only on a terminal and
 * never when NO_COLOR or CI is set or FORCE_COLOR is 0.
 *
 * Credentials never reach a log (the "Security" part of the package README, CONTRIBUTING.md): the code logs
 * chosen fields only, pino's `redact` censors the known credential fields wherever they appear in a logged
 * object, and a last filter on every written line replaces anything shaped like a login ticket, a session token,
 * a `login_ticket=` fragment, a bearer token or a signature header, in case one slipped into a message.
 */
import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import type { LogFormat } from "../config";

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

// Credential shapes of this server and of the spec: `lt_`/`ws_` (tickets, watch sessions) and `inv_`/`cs_`
// (console invites and sessions) + 43 base64url characters, the URL fragments that carry a ticket or an invite,
// bearer tokens, and an X-Signature header value written out.
const CREDENTIAL_SHAPES: readonly [RegExp, string][] = [
  [/\b(lt|ws|inv|cs)_[A-Za-z0-9_-]{20,}/g, `$1_${REDACTED}`],
  [/(login_ticket|token)=[^"\s&\\]+/g, `$1=${REDACTED}`],
  [/(Bearer\s+)[^"\s\\]+/gi, `$1${REDACTED}`],
  [/(x-signature["':=\s]+)[0-9a-f]{64}/gi, `$1${REDACTED}`],
];

/** Replaces credential-shaped substrings of one log line. */
export function scrubCredentials(line: string): string {
  let out = line;
  for (const [shape, replacement] of CREDENTIAL_SHAPES) out = out.replace(shape, replacement);
  return out;
}

/** How the lines look: readable or JSON, with or without colour. */
export interface LogStyle {
  readable: boolean;
  colour: boolean;
}

export const JSON_LINES: LogStyle = { readable: false, colour: false };

type Env = Readonly<Record<string, string | undefined>>;

/** Readable and coloured only where a person reads: a terminal, and no NO_COLOR, CI or FORCE_COLOR=0. */
export function logStyle(format: LogFormat, output: { isTTY?: boolean }, env: Env): LogStyle {
  const terminal = output.isTTY === true;
  const readable = format === "pretty" || (format === "auto" && terminal);
  const set = (name: string) =>
    env[name] !== undefined && env[name] !== "" && env[name] !== "0" && env[name]?.toLowerCase() !== "false";
  const colour = readable && terminal && !set("NO_COLOR") && !set("CI") && env.FORCE_COLOR !== "0";
  return { readable, colour };
}

/** How many bytes of log lines are gathered before one write to stdout. */
const LOG_BUFFER_BYTES = 4096;
/** The longest a line waits in that buffer. */
const LOG_FLUSH_INTERVAL_MS = 1000;

/**
 * Standard output written asynchronously and in blocks: a busy server writes one line per request, and one write
 * per line costs it a system call each. Lines are gathered up to LOG_BUFFER_BYTES, and written at the latest every
 * LOG_FLUSH_INTERVAL_MS; pino writes what is left when the process exits, and the server flushes on close.
 */
function bufferedStdout(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => stdout.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  return stdout;
}

/**
 * @example
 * const logger = createLogger("info"); // JSON lines on stdout
 * const forPeople = createLogger("info", undefined, logStyle("auto", process.stdout, process.env));
 * // Tests read what was logged (JSON unless a style says otherwise):
 * const captured = createLogger("debug", myWritableStream);
 */
export function createLogger(level: string, destination?: DestinationStream, style: LogStyle = JSON_LINES): Logger {
  const output = style.readable
    ? pretty({
        colorize: style.colour,
        translateTime: "SYS:HH:MM:ss.l",
        ignore: "pid,hostname,service",
        singleLine: true,
        destination: destination ?? 1,
        sync: destination !== undefined,
      })
    : (destination ?? bufferedStdout());
  return pino(
    {
      level,
      base: { service: "webinar-server" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: { streamWrite: scrubCredentials },
      formatters: { level: (label) => ({ level: label }) },
    },
    output,
  );
}
