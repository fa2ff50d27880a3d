/**
 * The tests' one client of the reference server's admin API: openapi-fetch over the paths of its document
 * (@org/webinar-admin-contract), so a call names a path, parameters and a body the document has, and the answer is
 * typed by status. Tests of the admin API itself keep their raw calls; everything else sets up its world here.
 */
import type { paths } from "@org/webinar-admin-contract";
import createClient, { type Client } from "openapi-fetch";

export type AdminClient = Client<paths>;

/** An admin API client of the server at `baseUrl` with the bearer token `token`. */
export function createAdminClient(baseUrl: string, token: string): AdminClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
}

/** What an openapi-fetch call resolves to. */
interface Answer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; throws with the method, path, status and error body otherwise. */
export async function adminData<Data>(call: Promise<Answer<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    const { pathname } = new URL(response.url);
    throw new Error(`admin ${pathname} answered ${response.status}: ${JSON.stringify(error)}`);
  }
  return data;
}

/** A merchant made through the admin API, with an API key and a webinar (published unless told otherwise). */
export interface AdminMerchant {
  merchantId: string;
  apiKey: string;
  secret: string;
  ticketCode: string;
}

/** Makes a merchant named `name`, its API key and a webinar of it. */
export async function createAdminMerchant(
  admin: AdminClient,
  { name = "Test merchant", webinar = {} }: { name?: string; webinar?: { title?: string; ticketCode?: string } } = {},
): Promise<AdminMerchant> {
  const { merchantId } = await adminData(admin.POST("/admin/v1/merchants", { body: { name } }));
  const merchant = { params: { path: { merchantId } } };
  const { apiKey, secret } = await adminData(admin.POST("/admin/v1/merchants/{merchantId}/api-keys", merchant));
  const { ticketCode } = await adminData(
    admin.POST("/admin/v1/merchants/{merchantId}/webinars", { ...merchant, body: webinar }),
  );
  return { merchantId, apiKey, secret, ticketCode };
}
