import { fileURLToPath } from "node:url";

/**
 * Tests import the workspace packages by name but run against their sources, so `pnpm test` never
 * depends on a stale `dist/`. The packed tarballs are exercised separately by `pnpm release:check`.
 */
const packageSource = (folder: string) => fileURLToPath(new URL(`./packages/${folder}/src/index.ts`, import.meta.url));

// Subpath entries come before their package: Vite matches aliases in order and by prefix.
export const workspaceAliases: Record<string, string> = {
  "@org/webinar-validator/contract": fileURLToPath(new URL("./packages/validator/src/contract.ts", import.meta.url)),
  "@org/webinar-validator/hono": fileURLToPath(new URL("./packages/validator/src/adapters/hono.ts", import.meta.url)),
  "@org/webinar-validator/nonce-store/postgres": fileURLToPath(
    new URL("./packages/validator/src/nonce-stores/postgres.ts", import.meta.url),
  ),
  "@org/webinar-validator/nonce-store/redis": fileURLToPath(
    new URL("./packages/validator/src/nonce-stores/redis.ts", import.meta.url),
  ),
  "@org/webinar-client/csv": fileURLToPath(new URL("./packages/client/src/csv.ts", import.meta.url)),
  "@org/webinar-conformance/reference-admin": fileURLToPath(
    new URL("./packages/conformance/src/reference-admin.ts", import.meta.url),
  ),
  "@org/webinar-console-contract/validators": fileURLToPath(
    new URL("./packages/console-contract/src/validators.ts", import.meta.url),
  ),
  "@org/webinar-console-contract": packageSource("console-contract"),
  "@org/webinar-types": packageSource("types"),
  "@org/webinar-signing": packageSource("signing"),
  "@org/webinar-client": packageSource("client"),
  "@org/webinar-validator": packageSource("validator"),
  "@org/webinar-server": packageSource("server"),
  "@org/webinar-conformance": packageSource("conformance"),
};
