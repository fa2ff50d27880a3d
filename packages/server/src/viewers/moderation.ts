/**
 * Display-name moderation for upsert (upsertViewer, Errors and retries): first the operator's blocked-terms list (admin
 * `PUT /admin/v1/moderation/blocked-terms`), then, when WEBINAR_MODERATION_URL is set, an external service.
 *
 * External protocol (defined by this server, documented in README.md):
 *   request  `POST <url>` with `Content-Type: application/json` and body `{"text": "<display name>"}`
 *   response `200` with `{"allowed": true}` or `{"allowed": false, "matches": ["<term>", ...]}` (`matches` optional)
 * Anything else (another status, a body of another shape, a network error, no answer within
 * WEBINAR_MODERATION_TIMEOUT_MS) makes the upsert answer 503 CONTENT_MODERATION_UNAVAILABLE.
 */
import type { Kysely } from "kysely";
import type { ChangeFeed } from "../cache/change-feed";
import { createReadThroughCache } from "../cache/read-through-cache";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";

export interface ModerationOptions {
  url: string | undefined;
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
}

export interface DisplayNameModerator {
  /** Resolves when the name may be used; throws CONTENT_SENSITIVE or CONTENT_MODERATION_UNAVAILABLE. */
  check(text: string): Promise<void>;
}

/** Case- and width-insensitive form used for matching (NFKC folds full-width letters, then lower case). */
export function foldForMatching(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/** The blocked terms contained in `text`, in list order. */
export function matchBlockedTerms(text: string, terms: readonly string[]): string[] {
  const folded = foldForMatching(text);
  return terms.filter((term) => folded.includes(foldForMatching(term)));
}

async function askExternalService(
  text: string,
  options: ModerationOptions & { url: string },
): Promise<string[] | null> {
  let response: Response;
  try {
    response = await options.fetch(options.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: "error",
    });
  } catch {
    throw new ServiceError("CONTENT_MODERATION_UNAVAILABLE", "content moderation is temporarily unavailable");
  }
  let verdict: unknown;
  try {
    verdict = response.ok ? await response.json() : undefined;
  } catch {
    verdict = undefined;
  }
  const { allowed, matches } = (verdict ?? {}) as { allowed?: unknown; matches?: unknown };
  const matchesValid =
    matches === undefined || (Array.isArray(matches) && matches.every((match) => typeof match === "string"));
  if (typeof allowed !== "boolean" || !matchesValid) {
    throw new ServiceError("CONTENT_MODERATION_UNAVAILABLE", "content moderation is temporarily unavailable");
  }
  return allowed ? null : ((matches as string[] | undefined) ?? []);
}

/**
 * The moderator of one server. The blocked terms are read from memory (the admin API's replacement announces the
 * `blockedTerms` topic, cache/change-feed.ts).
 */
export function createDisplayNameModerator(
  db: Kysely<Database>,
  changes: ChangeFeed,
  options: ModerationOptions,
): DisplayNameModerator {
  const blockedTerms = createReadThroughCache<"terms", string[]>({
    feed: changes,
    topic: "blockedTerms",
    max: 1,
    load: async () => {
      const rows = await db.selectFrom("moderation_blocked_terms").select("term").orderBy("position").execute();
      return rows.map((row) => row.term);
    },
  });
  return {
    async check(text) {
      const blocked = matchBlockedTerms(text, (await blockedTerms.get("terms")) ?? []);
      if (blocked.length > 0) {
        throw new ServiceError("CONTENT_SENSITIVE", "displayName was rejected by content moderation", {
          matches: blocked,
        });
      }
      if (options.url === undefined) return;
      const external = await askExternalService(text, { ...options, url: options.url });
      if (external !== null) {
        throw new ServiceError("CONTENT_SENSITIVE", "displayName was rejected by content moderation", {
          matches: external,
        });
      }
    },
  };
}
