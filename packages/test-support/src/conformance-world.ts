/**
 * The reference server as a server author meets it in the conformance kit's tests and guide: started as operators
 * start it, with what an operator would hand over, made through the admin API: two merchants with a key each, and
 * a published webinar of the first with watch records (imported sessions of registered and anonymous subjects,
 * live ended and finalized), so the pagination checks have records to page through.
 */
import { signRequest } from "@org/webinar-signing";
import type { components } from "@org/webinar-admin-contract";
import { type AdminClient, adminData, createAdminMerchant } from "./admin-client";
import { type ServerProcess, type ServerProcessOptions, startServerProcess } from "./server-process";

/** An API key and its secret. */
export interface MerchantKey {
  apiKey: string;
  secret: string;
}

/** What a server author gets from an operator: two merchants with a key each, and a published webinar with records. */
export interface ConformanceWorld {
  main: MerchantKey;
  second: MerchantKey;
  ticketCode: string;
}

export interface ConformanceServer extends ServerProcess, ConformanceWorld {
  /** The login ticket lifetime the server was started with. */
  ticketLifetimeSeconds: number;
}

/** One signed upsert, as a merchant backend makes it; resolves the viewer's uid. */
async function upsertViewer(baseUrl: string, key: MerchantKey, body: object): Promise<number> {
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

async function seedWatchData(server: ServerProcess, key: MerchantKey, ticketCode: string): Promise<void> {
  const uids: number[] = [];
  for (const [index, seed] of SEED.entries()) {
    const body = {
      externalUserId: `seed-${index + 1}`,
      ...(seed.phone ? { phone: `1390000${String(1000 + index)}` } : {}),
      ...(seed.name === undefined ? {} : { displayName: seed.name }),
    };
    uids.push(await upsertViewer(server.url, key, body));
  }
  const webinar = { params: { path: { ticketCode } } };
  const admin: AdminClient = server.admin;
  const session = (
    subject: components["schemas"]["ImportPlaybackSessionRequest"]["subject"],
    mode: "LIVE" | "REPLAY",
    watchSeconds: number,
    minutesAgo: number,
  ) =>
    adminData(
      admin.POST("/admin/v1/webinars/{ticketCode}/playback-sessions", {
        ...webinar,
        body: {
          subject,
          mode,
          watchSeconds,
          deviceType: "DESKTOP",
          protocol: "HLS",
          startedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
        },
      }),
    );
  const live = (action: "START" | "END") =>
    adminData(admin.POST("/admin/v1/webinars/{ticketCode}/live", { ...webinar, body: { action } }));
  await live("START");
  for (const [index, seed] of SEED.entries())
    await session({ uid: uids[index]! }, "LIVE", seed.live, seed.minutesAgo + 60);
  await session({ anonymousId: "anon-conformance" }, "LIVE", 300, 90);
  await live("END");
  await adminData(admin.POST("/admin/v1/webinars/{ticketCode}/finalize", { ...webinar, body: {} }));
  for (const [index, seed] of SEED.entries())
    await session({ uid: uids[index]! }, "REPLAY", seed.replay, seed.minutesAgo);
}

/** Through the admin API of `server`: two merchants, a key each, and a webinar of the first with watch records. */
export async function prepareConformanceWorld(server: ServerProcess): Promise<ConformanceWorld> {
  const first = await createAdminMerchant(server.admin, {
    name: "Conformance merchant",
    webinar: { title: "Conformance webinar" },
  });
  const second = await createAdminMerchant(server.admin, { name: "Second conformance merchant" });
  const main = { apiKey: first.apiKey, secret: first.secret };
  await seedWatchData(server, main, first.ticketCode);
  return { main, second: { apiKey: second.apiKey, secret: second.secret }, ticketCode: first.ticketCode };
}

/** Starts the server (`command`) on `database` and prepares the merchants, keys, webinar and watch data. */
export async function startConformanceServer(
  command: ServerProcessOptions["command"],
  database: "pglite" | "postgres",
  { ticketLifetimeSeconds = 60 }: { ticketLifetimeSeconds?: number } = {},
): Promise<ConformanceServer> {
  const server = await startServerProcess({
    command,
    database: database === "postgres" ? "postgres" : "embedded",
    label: "conformance",
    env: { WEBINAR_LOG_LEVEL: "warn", WEBINAR_TICKET_TTL_SECONDS: String(ticketLifetimeSeconds) },
  });
  try {
    return Object.assign(server, await prepareConformanceWorld(server), { ticketLifetimeSeconds });
  } catch (error) {
    await server.stop();
    throw error;
  }
}
