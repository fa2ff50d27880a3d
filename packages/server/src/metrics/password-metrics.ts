/**
 * Console password hashing (people/passwords.ts): how many scrypt computations ran (each sign-in attempt that got
 * past the throttle is one, so this counts the guesses the server checked) and how many run now, which the
 * hasher keeps at WEBINAR_CONSOLE_PASSWORD_HASHES_AT_ONCE or below.
 */
import { Counter, Gauge, type Registry } from "prom-client";

/** The hasher's `observe` hook, recording into `registry`. */
export function passwordHashMetrics(registry: Registry): (event: "start" | "end") => void {
  const hashes = new Counter({
    name: "webinar_console_password_hashes_total",
    help: "Console password hashes computed (scrypt), to set a password or to check one.",
    registers: [registry],
  });
  const running = new Gauge({
    name: "webinar_console_password_hashes_running",
    help: "Console password hashes computing now.",
    registers: [registry],
  });
  return (event) => {
    if (event === "start") {
      hashes.inc();
      running.inc();
    } else running.dec();
  };
}
