/**
 * The merchant's team over HTTP, on PGlite and on PostgreSQL (console-openapi.yaml: listPeople, invitePerson,
 * renewInvite, changePersonRole, removePerson; admin-openapi.yaml: listConsoleUsers, removeConsoleUser): invites by
 * an OWNER, roles, the last OWNER kept (also when two OWNERs act on each other at the same moment), removal ending
 * every session at once and voiding the invite, each change in the audit list, the recent password the changes
 * need (confirmPassword), and the operator's way back for a merchant without an OWNER.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type TestServer } from "./support/harness";
import { consolePerson, inviteToken, signedInPerson, STRONG_PASSWORD } from "./support/console-client";
import { testClock } from "./support/test-clock";

const RECENT_PASSWORD_SECONDS = 10 * 60;

describe.each(DATABASE_KINDS)("the console team on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  const clock = testClock();

  beforeAll(async () => {
    database = await openTestDatabase(kind, "console-team");
    api = await startTestServer(database, {}, { runtime: clock });
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  /** A merchant with a signed-in OWNER. */
  async function team(label: string) {
    const merchant = await api.newMerchant();
    const owner = await signedInPerson(api, merchant.merchantId, `${label}-owner@example.com`);
    return { merchant, owner };
  }

  const accept = (inviteUrl: string) =>
    consolePerson(api).call("POST", "/console/api/session/invite", {
      token: inviteToken(inviteUrl),
      password: STRONG_PASSWORD,
    });

  it("invitePerson: 201 {userId, inviteUrl}; the person accepts with the role given and is listed ACTIVE", async () => {
    const { owner } = await team("invite");
    const invited = await owner.call("POST", "/console/api/people", { email: "li@example.com", role: "ANALYST" });
    expect(invited.status).toBe(201);
    expect(invited.body.userId).toMatch(/^cu_/);
    expect(invited.body.inviteUrl).toMatch(new RegExp(`^${api.url}/console/invite#token=inv_`));
    const listed = await owner.call("GET", "/console/api/people");
    expect(listed.body.twoFactorRequired).toBe(false);
    expect(listed.body.items).toContainEqual(
      expect.objectContaining({ userId: invited.body.userId, role: "ANALYST", status: "INVITED", twoFactor: false }),
    );
    const accepted = await accept(invited.body.inviteUrl);
    expect(accepted).toMatchObject({ status: 200, body: { email: "li@example.com", role: "ANALYST" } });
    const after = await owner.call("GET", "/console/api/people");
    expect(after.body.items).toContainEqual(
      expect.objectContaining({ userId: invited.body.userId, status: "ACTIVE", inviteExpiresAt: null }),
    );
  });

  it.each([
    ["a person of this merchant", "member@example.com", "same"],
    ["a person of another merchant", "elsewhere@example.com", "other"],
  ])("invitePerson of %s's email is 409 CONSOLE_EMAIL_TAKEN", async (_case, email, where) => {
    const { merchant, owner } = await team(`taken-${where}`);
    const holder = where === "same" ? merchant : await api.newMerchant();
    await api.admin("POST", `/admin/v1/merchants/${holder.merchantId}/console-users`, { email });
    const answer = await owner.call("POST", "/console/api/people", { email: email.toUpperCase(), role: "OWNER" });
    expect(answer).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_EMAIL_TAKEN" } } });
  });

  it("renewInvite: a new link, the earlier one stops working; a person who accepted is 409 CONSOLE_PERSON_ACTIVE", async () => {
    const { owner } = await team("renew");
    const first = await owner.call("POST", "/console/api/people", { email: "late@example.com", role: "ANALYST" });
    const renewed = await owner.call("POST", `/console/api/people/${first.body.userId}/invite`, {});
    expect(renewed).toMatchObject({ status: 201, body: { userId: first.body.userId } });
    expect((await accept(first.body.inviteUrl)).body.error.code).toBe("CONSOLE_INVITE_INVALID");
    expect((await accept(renewed.body.inviteUrl)).status).toBe(200);
    const again = await owner.call("POST", `/console/api/people/${first.body.userId}/invite`, {});
    expect(again).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_PERSON_ACTIVE" } } });
  });

  it("changePersonRole: an ANALYST made OWNER may change things; the last OWNER cannot be demoted (409 CONSOLE_LAST_OWNER)", async () => {
    const { merchant, owner } = await team("roles");
    const analyst = await signedInPerson(api, merchant.merchantId, "roles-analyst@example.com", "ANALYST");
    expect((await analyst.call("POST", "/console/api/api-keys", {})).status).toBe(403);
    const promoted = await owner.call("POST", `/console/api/people/${analyst.userId}/role`, { role: "OWNER" });
    expect(promoted).toMatchObject({ status: 200, body: { person: { userId: analyst.userId, role: "OWNER" } } });
    expect((await analyst.call("POST", "/console/api/api-keys", {})).status).toBe(201);
    const demoteSelf = await owner.call("POST", `/console/api/people/${owner.userId}/role`, { role: "ANALYST" });
    expect(demoteSelf).toMatchObject({ status: 200, body: { person: { role: "ANALYST" } } });
    const demoteLast = await analyst.call("POST", `/console/api/people/${analyst.userId}/role`, { role: "ANALYST" });
    expect(demoteLast).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_LAST_OWNER" } } });
    expect((await owner.call("POST", "/console/api/api-keys", {})).body.error.code).toBe("CONSOLE_FORBIDDEN");
  });

  it("an invited person's new role is the one they get when they accept", async () => {
    const { owner } = await team("invited-role");
    const invited = await owner.call("POST", "/console/api/people", {
      email: "later-owner@example.com",
      role: "ANALYST",
    });
    await owner.call("POST", `/console/api/people/${invited.body.userId}/role`, { role: "OWNER" });
    expect((await accept(invited.body.inviteUrl)).body.role).toBe("OWNER");
  });

  it("removePerson: every session of theirs ends at once, their invite stops working, they cannot sign in, and the email can be invited again", async () => {
    const { merchant, owner } = await team("remove");
    const leaving = await signedInPerson(api, merchant.merchantId, "leaving@example.com");
    const secondDevice = consolePerson(api);
    expect(
      (
        await secondDevice.call("POST", "/console/api/session", {
          email: "leaving@example.com",
          password: STRONG_PASSWORD,
        })
      ).status,
    ).toBe(200);
    const pending = await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/console-users`, {
      email: "leaving@example.com",
    });
    const removed = await owner.call("POST", `/console/api/people/${leaving.userId}/remove`, {});
    expect(removed).toMatchObject({ status: 200, body: { userId: leaving.userId, sessionsEnded: 2 } });
    for (const device of [leaving, secondDevice]) {
      const next = await device.call("GET", "/console/api/api-keys");
      expect(next).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_UNAUTHORIZED" } } });
    }
    expect((await accept(pending.body.inviteUrl)).body.error.code).toBe("CONSOLE_INVITE_INVALID");
    const signIn = await consolePerson(api).call("POST", "/console/api/session", {
      email: "leaving@example.com",
      password: STRONG_PASSWORD,
    });
    expect(signIn).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_SIGN_IN_FAILED" } } });
    const people = (await owner.call("GET", "/console/api/people")).body.items as Array<{ userId: string }>;
    expect(people.map((person) => person.userId)).not.toContain(leaving.userId);
    const again = await owner.call("POST", "/console/api/people", { email: "leaving@example.com", role: "ANALYST" });
    expect(again.status).toBe(201);
    expect(again.body.userId).not.toBe(leaving.userId);
  });

  it("removePerson: the last OWNER is 409 CONSOLE_LAST_OWNER; another merchant's person is 404", async () => {
    const { owner } = await team("last");
    const self = await owner.call("POST", `/console/api/people/${owner.userId}/remove`, {});
    expect(self).toMatchObject({ status: 409, body: { error: { code: "CONSOLE_LAST_OWNER" } } });
    const other = await team("last-other");
    for (const [method, path, body] of [
      ["POST", `/console/api/people/${other.owner.userId}/remove`, {}],
      ["POST", `/console/api/people/${other.owner.userId}/role`, { role: "ANALYST" }],
      ["POST", `/console/api/people/${other.owner.userId}/invite`, {}],
    ] as const) {
      const answer = await owner.call(method, path, body);
      expect(answer, path).toMatchObject({ status: 404, body: { error: { code: "CONSOLE_PERSON_NOT_FOUND" } } });
    }
    expect((await other.owner.call("GET", "/console/api/me")).status).toBe(200);
  });

  it.each([
    ["remove", (id: string) => [`/console/api/people/${id}/remove`, {}] as const],
    ["demote", (id: string) => [`/console/api/people/${id}/role`, { role: "ANALYST" }] as const],
  ])(
    "two OWNERs who %s each other at the same moment: one succeeds, the merchant keeps an OWNER",
    async (name, call) => {
      for (let round = 0; round < 3; round += 1) {
        const { merchant, owner } = await team(`race-${name}-${round}`);
        const other = await signedInPerson(api, merchant.merchantId, `race-${name}-${round}-b@example.com`);
        const [minePath, mineBody] = call(other.userId);
        const [theirPath, theirBody] = call(owner.userId);
        const [mine, theirs] = await Promise.all([
          owner.call("POST", minePath, mineBody),
          other.call("POST", theirPath, theirBody),
        ]);
        const statuses = [mine.status, theirs.status].sort();
        expect(statuses[0], `round ${round}`).toBe(200);
        expect([401, 403, 409], `round ${round}`).toContain(statuses[1]);
        const people = await api.admin("GET", `/admin/v1/merchants/${merchant.merchantId}/console-users`);
        const owners = (people.body.items as Array<{ role: string; status: string }>).filter(
          (person) => person.role === "OWNER" && person.status === "ACTIVE",
        );
        expect(owners, `round ${round}`).toHaveLength(1);
      }
    },
  );

  it("each change is in the audit list, with the OWNER who made it", async () => {
    const { owner } = await team("audited");
    const invited = await owner.call("POST", "/console/api/people", { email: "audited@example.com", role: "ANALYST" });
    await accept(invited.body.inviteUrl);
    await owner.call("POST", `/console/api/people/${invited.body.userId}/role`, { role: "OWNER" });
    await owner.call("POST", `/console/api/people/${invited.body.userId}/remove`, {});
    const events = (await owner.call("GET", "/console/api/audit-events")).body.items as Array<Record<string, any>>;
    expect(events.slice(0, 3).map((event) => [event.action, event.target, event.actor?.userId])).toEqual([
      ["PERSON_REMOVED", "audited@example.com", owner.userId],
      ["PERSON_ROLE_CHANGED", "audited@example.com", owner.userId],
      ["PERSON_INVITED", "audited@example.com", owner.userId],
    ]);
    expect(events[1]!.details).toEqual({ userId: invited.body.userId, from: "ANALYST", to: "OWNER" });
  });

  it("changes that hand out access need a recent password: 403 CONSOLE_REAUTHENTICATION_REQUIRED, then confirmPassword", async () => {
    const { merchant, owner } = await team("recent");
    const other = await signedInPerson(api, merchant.merchantId, "recent-other@example.com", "ANALYST");
    const me = await owner.call("GET", "/console/api/me");
    // `recentSignInUntil` is to the second: between 599 and 600 seconds ahead.
    const recentFor = (until: string) => Math.ceil((Date.parse(until) - clock.now()) / 1000);
    expect(recentFor(me.body.recentSignInUntil)).toBe(RECENT_PASSWORD_SECONDS);
    clock.advance(RECENT_PASSWORD_SECONDS + 1);
    const sensitive = [
      ["/console/api/api-keys", {}],
      ["/console/api/people", { email: "recent-new@example.com", role: "ANALYST" }],
      [`/console/api/people/${other.userId}/role`, { role: "OWNER" }],
      [`/console/api/people/${other.userId}/remove`, {}],
      ["/console/api/me/two-factor/enrollment", {}],
      ["/console/api/me/two-factor/disable", {}],
      ["/console/api/people/two-factor-requirement", { required: false }],
    ] as const;
    for (const [path, body] of sensitive) {
      const refused = await owner.call("POST", path, body);
      expect(refused, path).toMatchObject({
        status: 403,
        body: { error: { code: "CONSOLE_REAUTHENTICATION_REQUIRED" } },
      });
    }
    expect((await owner.call("POST", "/console/api/webinars", { title: "Not sensitive" })).status).toBe(201);
    const wrong = await owner.call("POST", "/console/api/session/confirm-password", { password: "not my password" });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: "CONSOLE_SIGN_IN_FAILED" } } });
    expect((await owner.call("GET", "/console/api/me")).status).toBe(200);
    const confirmed = await owner.call("POST", "/console/api/session/confirm-password", { password: STRONG_PASSWORD });
    expect(confirmed.status).toBe(200);
    expect(recentFor(confirmed.body.recentSignInUntil)).toBe(RECENT_PASSWORD_SECONDS);
    expect((await owner.call("POST", "/console/api/api-keys", {})).status).toBe(201);
    expect((await owner.call("POST", `/console/api/people/${other.userId}/remove`, {})).status).toBe(200);
  });

  describe("the operator (admin API)", () => {
    it("listConsoleUsers: {items: [{userId, email, role, status}]}; 404 for an unknown merchant", async () => {
      const { merchant, owner } = await team("operator-list");
      await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/console-users`, {
        email: "operator-invited@example.com",
        role: "ANALYST",
      });
      const listed = await api.admin("GET", `/admin/v1/merchants/${merchant.merchantId}/console-users`);
      expect(listed.status).toBe(200);
      expect(listed.body.items).toEqual([
        expect.objectContaining({ email: "operator-invited@example.com", role: "ANALYST", status: "INVITED" }),
        expect.objectContaining({ userId: owner.userId, role: "OWNER", status: "ACTIVE" }),
      ]);
      const unknown = await api.admin("GET", "/admin/v1/merchants/mch_nobody/console-users");
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: "MERCHANT_NOT_FOUND" } } });
      expect(
        (await api.admin("GET", `/admin/v1/merchants/${merchant.merchantId}/console-users`, undefined, null)).status,
      ).toBe(401);
    });

    it("removeConsoleUser removes the last OWNER too; the operator then invites a new OWNER (the way back)", async () => {
      const { merchant, owner } = await team("operator-remove");
      const removed = await api.admin(
        "POST",
        `/admin/v1/merchants/${merchant.merchantId}/console-users/${owner.userId}/remove`,
        {},
      );
      expect(removed).toMatchObject({
        status: 200,
        body: { userId: owner.userId, status: "REMOVED", sessionsEnded: 1 },
      });
      expect((await owner.call("GET", "/console/api/me")).status).toBe(401);
      const signIn = await consolePerson(api).call("POST", "/console/api/session", {
        email: "operator-remove-owner@example.com",
        password: STRONG_PASSWORD,
      });
      expect(signIn.body.error.code).toBe("CONSOLE_SIGN_IN_FAILED");
      const again = await api.admin(
        "POST",
        `/admin/v1/merchants/${merchant.merchantId}/console-users/${owner.userId}/remove`,
        {},
      );
      expect(again).toMatchObject({ status: 200, body: { status: "REMOVED", sessionsEnded: 0 } });
      const successor = await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/console-users`, {
        email: "successor@example.com",
        role: "OWNER",
      });
      const accepted = await accept(successor.body.inviteUrl);
      expect(accepted).toMatchObject({ status: 200, body: { role: "OWNER" } });
      const other = await api.newMerchant();
      const foreign = await api.admin(
        "POST",
        `/admin/v1/merchants/${other.merchantId}/console-users/${owner.userId}/remove`,
        {},
      );
      expect(foreign).toMatchObject({ status: 404, body: { error: { code: "CONSOLE_PERSON_NOT_FOUND" } } });
    });
  });
});
