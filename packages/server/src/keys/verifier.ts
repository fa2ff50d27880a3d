/**
 * The server's @org/webinar-validator verifier: API keys' credentials read from memory with their signer prepared
 * once (a revoked key or a suspended merchant is refused at once here and within a second in every other process,
 * see api-keys.ts), the nonce store, the configured limits and origins. Every Open API request is
 * authenticated here and nowhere else.
 */
import { createRequestVerifier, defaultRequestId, type NonceStore, type RequestVerifier } from "@org/webinar-validator";
import type { ServerConfig } from "../config";
import type { Logger } from "../logging/log";
import type { Runtime } from "../runtime";
import type { ApiKeyStore } from "./api-keys";

/**
 * @example
 * const verifier = createVerifier(config, apiKeys, nonces.store, systemRuntime, logger);
 */
export function createVerifier(
  config: ServerConfig,
  apiKeys: ApiKeyStore,
  nonceStore: NonceStore,
  runtime: Runtime,
  logger: Logger,
): RequestVerifier {
  return createRequestVerifier({
    lookupKey: async (apiKey) => {
      const credential = await apiKeys.findActive(apiKey);
      return credential === null
        ? undefined
        : {
            secret: credential.secret,
            signer: credential.signer,
            merchantId: credential.merchantId,
            status: credential.merchantStatus,
          };
    },
    nonceStore,
    now: () => runtime.now(),
    limits: { clockSkewSeconds: config.clockSkewSeconds, maxBodyBytes: config.maxBodyBytes },
    allowedOrigins: config.allowedOrigins,
    createRequestId: defaultRequestId,
    onError: (error, source) => logger.warn({ err: error, source }, "authentication dependency failed"),
  });
}
