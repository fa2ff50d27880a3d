/**
 * What of a viewer's record a person of the console may see: an OWNER the whole record, an ANALYST each phone number
 * masked (viewers/phone-mask.ts), in the viewers table (queryViewers) and in the CSV export (exportViewers) alike.
 */
import type { ViewerWatchRecord } from "@org/webinar-types";
import type { ConsoleRole } from "../db/schema";
import { maskPhone } from "../viewers/phone-mask";

/** The records as `role` may see them (the same array for an OWNER). */
export function recordsFor<T extends Pick<ViewerWatchRecord, "phone">>(role: ConsoleRole, records: T[]): T[] {
  if (role === "OWNER") return records;
  return records.map((record) => (record.phone === undefined ? record : { ...record, phone: maskPhone(record.phone) }));
}
