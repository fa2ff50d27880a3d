/**
 * Starts servers for a test file on a shared test database and talks to them over HTTP: the admin API, signed
 * Open API calls through @org/webinar-client (with contract checking), raw signed requests for the cases a
 * correct client never sends, and captured logs and stdout.
 */
import { signRequest } from "@org/webinar-signing";
import { createWebinarClient, type WebinarClient, type WebinarClientOptions } from "@org/webinar-client";
import { loadConfig } from "../../src/config";
import type { DatabaseHandle } from "../../src/db/connect";
import { announce, createServer, createServerOn, type ServerOptions, type WebinarServer } from "../../src/server";
import { checkAnswer, contractCheckingFetch } from "./contract";
import { checkDocumentAnswer } from "./document-answers";
import type { TestDatabase } from "./databases";

export const ADMIN_TOKEN = "test-admin-token-0123456789";
export const SECRET_KEY = "7f1c9d4e2b8a6f0e3d5c7b9a1e2f4d6c8b0a2e4f6d8c0b2a4e6f8d0c2b4a6e8f";

/** Lines written to a log or to stdout. */
export class Capture {
  readonly lines: string[] = [];
  write(chunk: string | Uint8Array): boolean {
    this.lines.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  }
  get text(): string {
    return this.lines.join("");
  }
  /** The JSON log records. */
  records(): Record<string, unknown>[] {
    return this.text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

export interface AdminAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export interface Merchant {
  merchantId: string;
  apiKey: string;
  secret: string;
  ticketCode: string;
  client: WebinarClient;
}

export interface TestServer {
  server: WebinarServer;
  url: string;
  logs: Capture;
  stdout: Capture;
  /** Contract violations of Open API answers seen so far (expected: none). */
  violations: string[];
  admin(method: string, path: string, body?: unknown, token?: string | null): Promise<AdminAnswer>;
  /** A new active merchant with an API key and a published webinar (options: its watch origin, the webinar status). */
  newMerchant(options?: { watchOrigin?: string; webinarStatus?: string }): Promise<Merchant>;
  client(credentials: { apiKey: string; secret: string }, options?: Partial<WebinarClientOptions>): WebinarClient;
  /** A signed request built by hand; `mutate` may change path, headers or body after signing. */
  signed(
    credentials: { apiKey: string; secret: string },
    path: string,
    body: unknown,
    options?: SignedOptions,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  exchange(ticketCode: string, loginTicket: string): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export interface SignedOptions {
  timestamp?: string;
  nonce?: string;
  /** Path sent on the wire when it differs from the signed one. */
  sendPath?: string;
  /** Body bytes sent when they differ from the signed ones. */
  sendBody?: string;
  headers?: Record<string, string>;
  /** Header names to drop after signing. */
  omit?: string[];
}

/**
 * Console passwords in tests: scrypt at 1/128 of OWASP's N, so the many sign-ins of the console's tests cost
 * milliseconds. The built server's own tests (the console app's, run against `webinar-server`) check the default.
 */
export const TEST_PASSWORD_COST = { N: 2 ** 10, r: 8, p: 1 } as const;

export interface TestServerOptions extends ServerOptions {
  /**
   * The server's database: the test file's open handle (default), another open handle, or `"own"`: the server
   * connects by itself, as a second process would.
   */
  database?: DatabaseHandle | "own";
}

/**
 * Starts a server on `database` with test defaults (random port, admin token, shared secret key, no demo seed,
 * log captured) overridden by `env`.
 */
export async function startTestServer(
  database: TestDatabase,
  env: Record<string, string> = {},
  { database: handle = database.handle, ...options }: TestServerOptions = {},
): Promise<TestServer> {
  const config = loadConfig({
    PORT: "0",
    WEBINAR_ADMIN_TOKEN: ADMIN_TOKEN,
    WEBINAR_SECRET_KEY: SECRET_KEY,
    WEBINAR_SEED_DEMO: "false",
    WEBINAR_LOG_LEVEL: "debug",
    ...database.env,
    ...env,
  });
  const logs = new Capture();
  const stdout = new Capture();
  const serverOptions = { logDestination: logs, passwordCost: TEST_PASSWORD_COST, ...options };
  const created =
    handle === "own"
      ? await createServer(config, serverOptions)
      : await createServerOn({ database: handle, lock: undefined, owned: false }, config, serverOptions);
  const server = await announce(created, config, stdout as never);
  const url = server.url;
  const violations: string[] = [];
  const checkedFetch = contractCheckingFetch(violations);

  const admin = adminCaller(url);
  const client: TestServer["client"] = (credentials, clientOptions = {}) =>
    createWebinarClient({
      baseUrl: url,
      ...credentials,
      retry: false,
      clockSkew: false,
      fetch: checkedFetch,
      ...clientOptions,
    });
  return {
    server,
    url,
    logs,
    stdout,
    violations,
    admin,
    newMerchant: (merchantOptions) => createMerchant(admin, client, merchantOptions),
    client,
    signed: signedSender(url, violations),
    exchange: (ticketCode, loginTicket) => exchangeTicket(url, ticketCode, loginTicket),
    close: () => server.close(),
  };
}

/** Admin API calls with the test admin token (or another token, or none). */
function adminCaller(url: string): TestServer["admin"] {
  return async (method, path, body, token = ADMIN_TOKEN) => {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    checkDocumentAnswer("admin", { method, path }, { status: response.status, headers: response.headers, text });
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text), headers: response.headers };
  };
}

/** A new active merchant through the admin API: an API key and a webinar (published unless told otherwise). */
async function createMerchant(
  admin: TestServer["admin"],
  client: TestServer["client"],
  options: Parameters<TestServer["newMerchant"]>[0] = {},
): Promise<Merchant> {
  const merchant = await admin("POST", "/admin/v1/merchants", {
    name: "Test merchant",
    ...(options.watchOrigin ? { watchOrigin: options.watchOrigin } : {}),
  });
  if (merchant.status !== 201) throw new Error(`create merchant: ${merchant.status} ${JSON.stringify(merchant.body)}`);
  const { merchantId } = merchant.body as { merchantId: string };
  const key = await admin("POST", `/admin/v1/merchants/${merchantId}/api-keys`, {});
  const webinar = await admin("POST", `/admin/v1/merchants/${merchantId}/webinars`, {
    title: "Test webinar",
    status: options.webinarStatus ?? "PUBLISHED",
  });
  const credentials = key.body as { apiKey: string; secret: string };
  return {
    merchantId,
    ...credentials,
    ticketCode: (webinar.body as { ticketCode: string }).ticketCode,
    client: client(credentials),
  };
}

/** Signed requests built by hand; answers to requests sent as signed are checked against the spec's contract. */
function signedSender(url: string, violations: string[]): TestServer["signed"] {
  return async (credentials, path, body, options = {}) => {
    const raw = typeof body === "string" ? body : JSON.stringify(body);
    const { headers } = await signRequest({
      apiKey: credentials.apiKey,
      secret: credentials.secret,
      path,
      body: raw,
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
      ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
    });
    const sent: Record<string, string> = { ...headers, ...options.headers };
    for (const name of options.omit ?? []) delete sent[name];
    const response = await fetch(`${url}${options.sendPath ?? path}`, {
      method: "POST",
      headers: sent,
      body: options.sendBody ?? raw,
    });
    if (options.sendPath === undefined) violations.push(...(await checkAnswer(path, response)));
    const text = await response.text();
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text), headers: response.headers };
  };
}

/** The watch page's ticket exchange, `POST /w/api/session`. */
async function exchangeTicket(url: string, ticketCode: string, loginTicket: string) {
  const response = await fetch(`${url}/w/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ticketCode, loginTicket }),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** The API error an Open API call was rejected with (status, code, requestId), or a failure if it succeeded. */
export async function apiError(
  call: Promise<unknown>,
): Promise<{ status: number; code: string; requestId: string; details: Record<string, unknown> | undefined }> {
  try {
    await call;
  } catch (error) {
    const { status, code, requestId, details } = error as {
      status: number;
      code: string;
      requestId: string;
      details?: Record<string, unknown>;
    };
    if (typeof code !== "string") throw error;
    return { status, code, requestId, details };
  }
  throw new Error("expected the call to fail with an API error, but it succeeded");
}
