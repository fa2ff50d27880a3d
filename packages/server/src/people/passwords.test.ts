import { describe, expect, it } from "vitest";
import type { ServiceError } from "../errors";
import { systemRuntime } from "../runtime";
import { createPasswordHasher } from "./passwords";

describe("createPasswordHasher: scrypt at OWASP's parameters, a bounded number at once", () => {
  it("hashes with N=2^17, r=8, p=1 and verifies only the same password; a hash of other parameters is outdated", async () => {
    const hasher = createPasswordHasher({ runtime: systemRuntime, atOnce: 2 });
    const stored = await hasher.hash("correct horse battery staple");
    expect(stored.split("$").slice(0, 4)).toEqual(["scrypt", "131072", "8", "1"]);
    expect(await hasher.verify("correct horse battery staple", stored)).toEqual({ matches: true, outdated: false });
    expect(await hasher.verify("correct horse battery stapler", stored)).toEqual({ matches: false, outdated: false });
    const older = stored.replace("$131072$", "$32768$");
    expect((await hasher.verify("correct horse battery staple", older)).outdated).toBe(true);
    expect(await hasher.verify("anything", undefined)).toEqual({ matches: false, outdated: false });
  });

  it("runs at most `atOnce` hashes at a time, lines up `waiting` more, and refuses beyond them with 429 CONSOLE_BUSY", async () => {
    let running = 0;
    let peak = 0;
    const hasher = createPasswordHasher({
      runtime: systemRuntime,
      atOnce: 2,
      waiting: 2,
      observe: (event) => {
        running += event === "start" ? 1 : -1;
        peak = Math.max(peak, running);
      },
    });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => hasher.verify("a guess", undefined)));
    const refused = results.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(2);
    const reason = (refused[0] as PromiseRejectedResult).reason as ServiceError;
    expect([reason.code, reason.status, reason.details]).toEqual(["CONSOLE_BUSY", 429, { retryAfterSeconds: 1 }]);
    expect(peak).toBe(2);
  }, 60_000);
});
