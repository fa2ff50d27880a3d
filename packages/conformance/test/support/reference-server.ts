/**
 * The reference server as operators run it (`node packages/server/dist/main.js`, built by `pnpm build`), on the
 * embedded database or on a PostgreSQL database of its own, with what an operator would hand a server author:
 * through the admin API, two merchants with a key each and a published webinar of the first. The webinar gets watch
 * records (imported sessions of registered and anonymous subjects, live ended and finalized), so the pagination
 * checks have records to page through.
 */
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { signRequest } from "@org/webinar-signing";
import pg from "pg";
import { startInBackground, type BackgroundProcess } from "./processes";

const SERVER_MAIN = fileURLToPath(new URL("../../../server/dist/main.js", import.meta.url));
const POSTGRES_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface ReferenceServer {
  baseUrl: string;
  main: { apiKey: string; secret: string };
  second: { apiKey: string; secret: string };
  ticketCode: string;
  /** The admin token, for the reference server's setup hooks. */
  adminToken: string;
  /** The login ticket lifetime the server was started with. */
  ticketLifetimeSeconds: number;
  stop(): Promise<void>;
}

async function withPostgres<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database with a unique name, and how to drop it. */
async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `webinar_conformance_${randomBytes(5).toString("hex")}`;
  await withPostgres((client) => client.query(`create database "${name}"`));
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: () =>
      withPostgres((client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

function adminClient(baseUrl: string, token: string) {
  return async (path: string, body: unknown = {}): Promise<Record<string, string>> => {
    const response = await fetch(`${baseUrl}/admin/v1/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, string>;
    if (response.status >= 300) throw new Error(`admin ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
}

/** One signed upsert, as a merchant backend makes it; resolves the viewer's uid. */
async function upsertViewer(baseUrl: string, key: { apiKey: string; secret: string }, body: object): Promise<number> {
  const path = "/api/v1/open/viewers/upsert";
  const raw = JSON.stringify(body);
  const { headers } = await signRequest({ ...key, path, body: raw });
  const response = await fetch(`${baseUrl}${path}`, { method: "POST", headers: { ...headers }, body: raw });
  const answer = (await response.json()) as { data: { viewer: { uid: number } } };
  if (response.status !== 200) throw new Error(`upsert answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer.data.viewer.uid;
}

/** Seconds and start offsets with ties in each sort, so the server's tie-break is what keeps pages apart. */
const SEED = [
  { live: 1200, replay: 300, minutesAgo: 50, phone: true, name: "Alice" },
  { live: 600, replay: 120, minutesAgo: 40, phone: false, name: undefined },
  { live: 600, replay: 120, minutesAgo: 40, phone: true, name: "Carol" },
  { live: 30, replay: 45, minutesAgo: 30, phone: false, name: "Dan" },
  { live: 2400, replay: 600, minutesAgo: 20, phone: true, name: undefined },
  { live: 600, replay: 120, minutesAgo: 10, phone: false, name: undefined },
  { live: 90, replay: 900, minutesAgo: 5, phone: true, name: "Grace" },
];

async function seedWatchData(
  baseUrl: string,
  admin: ReturnType<typeof adminClient>,
  key: { apiKey: string; secret: string },
  ticketCode: string,
): Promise<void> {
  const uids: number[] = [];
  for (const [index, seed] of SEED.entries()) {
    const body = {
      externalUserId: `seed-${index + 1}`,
      ...(seed.phone ? { phone: `1390000${String(1000 + index)}` } : {}),
      ...(seed.name === undefined ? {} : { displayName: seed.name }),
    };
    uids.push(await upsertViewer(baseUrl, key, body));
  }
  const session = (subject: object, mode: string, watchSeconds: number, minutesAgo: number) =>
    admin(`webinars/${ticketCode}/playback-sessions`, {
      subject,
      mode,
      watchSeconds,
      deviceType: "DESKTOP",
      protocol: "HLS",
      startedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    });
  await admin(`webinars/${ticketCode}/live`, { action: "START" });
  for (const [index, seed] of SEED.entries())
    await session({ uid: uids[index] }, "LIVE", seed.live, seed.minutesAgo + 60);
  await session({ anonymousId: "anon-conformance" }, "LIVE", 300, 90);
  await admin(`webinars/${ticketCode}/live`, { action: "END" });
  await admin(`webinars/${ticketCode}/finalize`);
  for (const [index, seed] of SEED.entries())
    await session({ uid: uids[index] }, "REPLAY", seed.replay, seed.minutesAgo);
}

/** What a server author gets from an operator: two merchants with a key each, and a published webinar with records. */
export interface PreparedMerchants {
  main: { apiKey: string; secret: string };
  second: { apiKey: string; secret: string };
  ticketCode: string;
}

/** Through the admin API of the server at `baseUrl`: two merchants, a key each, and a webinar of the first with watch records. */
export async function prepareMerchants(baseUrl: string, token: string): Promise<PreparedMerchants> {
  const admin = adminClient(baseUrl, token);
  const merchant = async (name: string) => {
    const { merchantId } = await admin("merchants", { name });
    const { apiKey, secret } = await admin(`merchants/${merchantId}/api-keys`);
    return { merchantId: merchantId!, key: { apiKey: apiKey!, secret: secret! } };
  };
  const first = await merchant("Conformance merchant");
  const second = await merchant("Second conformance merchant");
  const { ticketCode } = await admin(`merchants/${first.merchantId}/webinars`, { title: "Conformance webinar" });
  await seedWatchData(baseUrl, admin, first.key, ticketCode!);
  return { main: first.key, second: second.key, ticketCode: ticketCode! };
}

/** Starts the server on `database` and prepares the merchants, keys, webinar and watch data. */
export async function startReferenceServer(
  database: "pglite" | "postgres",
  { ticketLifetimeSeconds = 60 }: { ticketLifetimeSeconds?: number } = {},
): Promise<ReferenceServer> {
  const token = randomBytes(16).toString("hex");
  const postgres = database === "postgres" ? await createDatabase() : undefined;
  let server: BackgroundProcess | undefined;
  try {
    server = await startInBackground(process.execPath, [SERVER_MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: "0",
        WEBINAR_ADMIN_TOKEN: token,
        WEBINAR_SEED_DEMO: "false",
        WEBINAR_LOG_LEVEL: "warn",
        WEBINAR_TICKET_TTL_SECONDS: String(ticketLifetimeSeconds),
        ...(postgres === undefined
          ? { WEBINAR_DATA_DIR: "memory:" }
          : { DATABASE_URL: postgres.url, WEBINAR_SECRET_KEY: randomBytes(32).toString("hex") }),
      },
      listening: /listening on (http:\/\/\S+)/,
    });
    const baseUrl = server.url;
    const { main, second, ticketCode } = await prepareMerchants(baseUrl, token);
    const running = server;
    return {
      baseUrl,
      main,
      second,
      ticketCode,
      adminToken: token,
      ticketLifetimeSeconds,
      async stop() {
        await running.stop();
        await postgres?.drop();
      },
    };
  } catch (error) {
    await server?.stop();
    await postgres?.drop();
    throw error;
  }
}
