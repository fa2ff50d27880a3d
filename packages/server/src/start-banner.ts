/**
 * The block printed to stdout once the server listens: where everything is, and on the first start the demo's
 * credentials, the secret among them exactly once. It is for the person at the terminal, so it goes to stdout
 * and never to the log.
 */
import type { ServerConfig } from "./config";
import { inviteUrl } from "./people/invites";
import type { DemoSeed } from "./seed/demo";

export interface StartFacts {
  baseUrl: string;
  /** The origin of the console's links (WEBINAR_PUBLIC_ORIGIN, else the base URL). */
  consoleOrigin?: string;
  storage: ServerConfig["storage"];
  demo: DemoSeed;
  /** The demo's credentials file, when it holds them. */
  credentialsFile: string | undefined;
  /** Where the admin API's token comes from. */
  admin: "environment" | "demo" | "disabled";
}

function storageLine(storage: ServerConfig["storage"]): string {
  if (storage.kind === "postgres") return "PostgreSQL (DATABASE_URL)";
  return storage.dataDir === "memory:"
    ? "embedded database in memory (nothing kept)"
    : `embedded database in ${storage.dataDir}`;
}

const ADMIN_TOKEN_SOURCE: Record<StartFacts["admin"], string> = {
  environment: "bearer token: WEBINAR_ADMIN_TOKEN",
  demo: "bearer token: WEBINAR_ADMIN_TOKEN in the credentials file",
  disabled: "disabled: start with WEBINAR_ADMIN_TOKEN set",
};

function demoLines({ demo, baseUrl, consoleOrigin, credentialsFile }: StartFacts): string[] {
  if (demo.kind === "none") return [];
  const webinar = `  demo webinar ${demo.ticketCode}: ${baseUrl}/w/${demo.ticketCode} (the page a login ticket opens)`;
  if (demo.kind === "existing") {
    const where =
      credentialsFile !== undefined
        ? `  credentials  ${credentialsFile}`
        : `  the API secret was shown on the first start only; a new key: POST /admin/v1/merchants/${demo.merchantId}/api-keys`;
    return ["", `Demo merchant ${demo.merchantId}`, webinar, where];
  }
  return [
    "",
    `Demo merchant ${demo.merchantId}, created on this first start (the secret is shown this once):`,
    `  WEBINAR_BASE_URL=${baseUrl}`,
    `  WEBINAR_API_KEY=${demo.apiKey}`,
    `  WEBINAR_API_SECRET=${demo.secret}`,
    webinar,
    `  console      ${inviteUrl(consoleOrigin ?? baseUrl, demo.consoleInviteToken)}`,
    `               (the invite of ${demo.consoleEmail}: open it once to choose a password; it expires)`,
    credentialsFile !== undefined
      ? `  saved in ${credentialsFile} (readable by you only)`
      : "  not saved anywhere: copy them now (the database keeps the secret encrypted)",
  ];
}

function nextSteps({ demo, credentialsFile }: StartFacts): string[] {
  if (demo.kind === "none") return [];
  const credentials =
    credentialsFile !== undefined ? `--env-file ${credentialsFile}` : "(with the variables above exported)";
  return [
    "",
    "Next: the README's walkthrough, or the CLI of @org/webinar-client, from the repository root:",
    `  npx webinar ${credentials} upsert --external-user-id demo-1`,
  ];
}

/** The start block, ending with a blank line. */
export function startBanner(facts: StartFacts): string {
  const { baseUrl } = facts;
  const lines = [
    `Webinar reference server listening on ${baseUrl} (${storageLine(facts.storage)})`,
    `  Open API     ${baseUrl}/api/v1/open/ (signed POSTs)`,
    `  Admin API    ${baseUrl}/admin/v1/ (${ADMIN_TOKEN_SOURCE[facts.admin]})`,
    `  Console      ${facts.consoleOrigin ?? baseUrl}/console/ (people of a merchant, invited by the admin API)`,
    `  Health       ${baseUrl}/healthz`,
    ...demoLines(facts),
    ...nextSteps(facts),
    "",
  ];
  return `${lines.join("\n")}\n`;
}
