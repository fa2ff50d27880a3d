/** What the admin operations need: the database and the injected clock and randomness. */
import type { Kysely } from "kysely";
import type { ApiKeyStore } from "../keys/api-keys";
import type { ChangeFeed } from "../cache/change-feed";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";

export interface AdminContext {
  db: Kysely<Database>;
  runtime: Runtime;
  apiKeys: ApiKeyStore;
  /** Writes to what the Open API reads from memory go through it, so every process learns of them. */
  changes: ChangeFeed;
  /** Seconds between the end of a live and the background finalization of its data. */
  finalizeGraceSeconds: number;
  /** How long a console invite link can be used. */
  consoleInviteTtlSeconds: number;
}
