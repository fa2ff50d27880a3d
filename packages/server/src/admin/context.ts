/** What the admin operations need: the database and the injected clock and randomness. */
import type { Kysely } from "kysely";
import type { ApiKeyStore } from "../auth/api-keys";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";

export interface AdminContext {
  db: Kysely<Database>;
  runtime: Runtime;
  apiKeys: ApiKeyStore;
  /** Seconds between the end of a live and the background finalization of its data. */
  finalizeGraceSeconds: number;
}
