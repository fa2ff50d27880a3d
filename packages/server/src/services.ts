/** Everything the routes need, built once by server.ts and passed down (no module-level state). */
import type { Kysely } from "kysely";
import type { RequestVerifier, RequestVerifierOptions } from "@org/webinar-validator";
import type { ApiKeyStore } from "./auth/api-keys";
import type { CredentialCache } from "./auth/credential-cache";
import type { NonceClaim } from "./auth/nonce-claim";
import type { ConsumingNonceStore } from "./auth/nonce-store";
import type { ServerConfig } from "./config";
import type { Database } from "./db/schema";
import type { Logger } from "./log";
import type { Runtime } from "./runtime";
import type { WatchDomainResolver } from "./tickets/watch-domain";
import type { WebinarMetadataSource } from "./tickets/webinar-metadata";
import type { DisplayNameModerator } from "./viewers/moderation";

export interface AppServices {
  config: ServerConfig;
  db: Kysely<Database>;
  runtime: Runtime;
  logger: Logger;
  apiKeys: ApiKeyStore;
  nonceStore: ConsumingNonceStore;
  moderator: DisplayNameModerator;
  webinarMetadata: WebinarMetadataSource;
  watchDomains: WatchDomainResolver;
  verifier: RequestVerifier;
  /** With the credential cache: requests that met a stale cached credential, to be verified once more. */
  staleCredentials?: Pick<CredentialCache, "takeStale">;
  /**
   * With the credential cache and the database nonce store: verifier options whose nonce store consumes nothing,
   * and claims with which the request's own statement consumes the nonce (auth/nonce-claim.ts, app.ts).
   */
  nonceDeferral?: {
    options: RequestVerifierOptions;
    claim(apiKey: string, nonce: string): NonceClaim;
    invalidate(apiKey: string): void;
  };
  /** MAC key of the detail query's cursors, derived from the secret key so every process accepts them. */
  cursorKey: Buffer;
}
