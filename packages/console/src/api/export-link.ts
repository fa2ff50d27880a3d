/**
 * The address of exportViewers, the CSV of every viewer record for a mode. It is a plain link (the browser
 * downloads the streamed file itself, with the session cookie), so it is built here from the operation's path,
 * which the generated types tie to that operation.
 */
import type { operations, paths } from "@org/webinar-console-contract";
import type { Mode } from "./console-api";

const EXPORT_VIEWERS = "/console/api/webinars/{ticketCode}/watch/viewers.csv" satisfies keyof paths;

// Fails to compile when the path above stops being the exportViewers operation.
const isExportViewers: paths[typeof EXPORT_VIEWERS]["get"] extends operations["exportViewers"] ? true : never = true;

export function exportViewersHref(ticketCode: string, mode: Mode): string {
  const query: operations["exportViewers"]["parameters"]["query"] = { mode };
  return isExportViewers
    ? `${EXPORT_VIEWERS.replace("{ticketCode}", encodeURIComponent(ticketCode))}?${new URLSearchParams(query)}`
    : "";
}
