/**
 * First start with an empty database: demo merchant, API key and published webinar, in one block on stdout with
 * the secret exactly once; on a data directory the credentials are also saved in demo-credentials.env (mode
 * 0600) with an admin token made for the demo, which later starts keep using. A second start prints the ids
 * only, never the secret. Embedded: a data directory on disk; PostgreSQL: a database of its own (nothing saved,
 * the admin API stays disabled without WEBINAR_ADMIN_TOKEN). The printed and saved credentials work.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createWebinarClient } from "@org/webinar-client";
import { loadConfig } from "../src/config";
import { startServer } from "../src/server";
import { Capture } from "./support/harness";
import { createPostgresDatabase, DATABASE_KINDS } from "./support/databases";

const adminCreateMerchant = (baseUrl: string, token: string) =>
  fetch(`${baseUrl}/admin/v1/merchants`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Second" }),
  });

const SECRET_KEY = "0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c";

describe.each(DATABASE_KINDS)("demo seeding on %s", (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("first start prints the demo credentials once; a second start prints only the ids", async () => {
    let env: Record<string, string>;
    let dataDir: string | undefined;
    if (kind === "pglite") {
      const parent = await mkdtemp(path.join(os.tmpdir(), "webinar-seed-"));
      cleanups.push(() => rm(parent, { recursive: true, force: true }));
      dataDir = path.join(parent, "data");
      env = { WEBINAR_DATA_DIR: dataDir };
    } else {
      const database = await createPostgresDatabase("seed");
      cleanups.push(database.drop);
      env = { DATABASE_URL: database.url, WEBINAR_SECRET_KEY: SECRET_KEY };
    }
    const config = loadConfig({ PORT: "0", WEBINAR_LOG_LEVEL: "info", ...env });

    const stdout1 = new Capture();
    const logs1 = new Capture();
    const first = await startServer(config, { stdout: stdout1 as never, logDestination: logs1 });
    let secret: string;
    let adminToken: string | undefined;
    try {
      expect(first.demo.kind).toBe("created");
      if (first.demo.kind !== "created") return;
      ({ secret } = first.demo);
      const { apiKey, ticketCode, merchantId } = first.demo;
      const printed = stdout1.text;
      expect(printed).toContain(first.url);
      expect(printed).toContain(merchantId);
      expect(printed).toContain(ticketCode);
      expect(printed.split(secret).length - 1).toBe(1);
      expect(printed).toContain(`WEBINAR_API_SECRET=${secret}\n`);
      expect(printed).not.toMatch(/\u001b\[/);
      expect(logs1.text).not.toContain(secret);
      // The demo console user's invite: printed once, never logged, and it signs the person in.
      const invite = new RegExp(`console      (${first.url}/console/invite#token=inv_[A-Za-z0-9_-]+)\n`).exec(
        printed,
      )?.[1];
      expect(invite).toBeDefined();
      expect(printed).toContain("(the invite of demo@example.com:");
      const token = new URL(invite!).hash.slice("#token=".length);
      expect(logs1.text).not.toContain(token);
      const accepted = await fetch(`${first.url}/console/api/session/invite`, {
        method: "POST",
        headers: { origin: first.url, "content-type": "application/json" },
        body: JSON.stringify({ token, password: "demo console password" }),
      });
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toMatchObject({
        email: "demo@example.com",
        role: "OWNER",
        merchant: { merchantId },
      });
      if (dataDir !== undefined) {
        const file = path.join(dataDir, "demo-credentials.env");
        expect(printed).toContain(`npx webinar --env-file ${file} upsert --external-user-id demo-1`);
        expect((await stat(file)).mode & 0o777).toBe(0o600);
        const saved = parseEnv(await readFile(file, "utf8"));
        expect(saved).toMatchObject({
          WEBINAR_BASE_URL: first.url,
          WEBINAR_API_KEY: apiKey,
          WEBINAR_API_SECRET: secret,
          WEBINAR_DEMO_TICKET_CODE: ticketCode,
          WEBINAR_CONSOLE_EMAIL: "demo@example.com",
          WEBINAR_CONSOLE_INVITE_URL: invite,
        });
        expect(printed).toContain(
          `Admin API    ${first.url}/admin/v1/ (bearer token: WEBINAR_ADMIN_TOKEN in the credentials file)`,
        );
        adminToken = saved.WEBINAR_ADMIN_TOKEN;
        expect(adminToken).toMatch(/^adm_[A-Za-z0-9]{32}$/);
        expect(printed).not.toContain(adminToken!);
        expect(logs1.text).not.toContain(adminToken!);
        expect((await adminCreateMerchant(first.url, adminToken!)).status).toBe(201);
      } else {
        expect(printed).toContain("not saved anywhere");
        expect(printed).toContain("disabled: start with WEBINAR_ADMIN_TOKEN set");
        expect((await adminCreateMerchant(first.url, "any-token-at-all")).status).toBe(401);
      }

      // The printed credentials work against the published demo webinar.
      const client = createWebinarClient({ baseUrl: first.url, apiKey, secret, retry: false });
      const { viewer } = await client.upsertViewer({ externalUserId: "demo-1" });
      expect((await client.issueLoginTicket({ uid: viewer.uid, ticketCode })).loginUrl).toContain(
        `/w/${ticketCode}#login_ticket=`,
      );
    } finally {
      await first.close();
    }
    if (dataDir !== undefined) expect((await stat(path.join(dataDir, "secret.key"))).mode & 0o777).toBe(0o600);

    const stdout2 = new Capture();
    const logs2 = new Capture();
    const second = await startServer(config, { stdout: stdout2 as never, logDestination: logs2 });
    try {
      expect(second.demo.kind).toBe("existing");
      expect(stdout2.text).toContain(second.url);
      if (first.demo.kind === "created") {
        expect(stdout2.text).toContain(first.demo.merchantId);
        expect(stdout2.text).toContain(first.demo.ticketCode);
      }
      expect(stdout2.text).not.toContain(secret);
      expect(logs2.text).not.toContain(secret);
      if (adminToken !== undefined) {
        // A later start on the same data directory keeps the demo's admin token and names the file.
        expect(stdout2.text).toContain(`credentials  ${path.join(dataDir!, "demo-credentials.env")}`);
        expect((await adminCreateMerchant(second.url, adminToken)).status).toBe(201);
        expect((await adminCreateMerchant(second.url, "adm_wrong-token-xxxxxxxxxxxxxxxx")).status).toBe(401);
      }
    } finally {
      await second.close();
    }
  });
});

describe("secret key checks", () => {
  it("a start with another key than the data was encrypted with is refused", async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), "webinar-key-"));
    try {
      const dataDir = path.join(parent, "data");
      const base = { PORT: "0", WEBINAR_DATA_DIR: dataDir, WEBINAR_SEED_DEMO: "false" };
      const server = await startServer(loadConfig({ ...base, WEBINAR_SECRET_KEY: SECRET_KEY }), {
        stdout: new Capture() as never,
        logDestination: new Capture(),
      });
      await server.close();
      await expect(
        startServer(loadConfig({ ...base, WEBINAR_SECRET_KEY: SECRET_KEY.replace(/^0/, "1") }), {
          stdout: new Capture() as never,
          logDestination: new Capture(),
        }),
      ).rejects.toThrow(/not the key the stored API-key secrets were encrypted with/);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
