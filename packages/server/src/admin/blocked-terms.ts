/**
 * The display-name blocked-terms list (admin `PUT moderation/blocked-terms`), replaced as a whole in one
 * transaction that announces the `blockedTerms` topic.
 */
import type { AdminContext } from "./context";

export async function replaceBlockedTerms(ctx: AdminContext, terms: readonly string[]): Promise<{ terms: string[] }> {
  const unique = [...new Set(terms.map((term) => term.trim()).filter((term) => term !== ""))];
  await ctx.changes.write("blockedTerms", async (trx) => {
    await trx.deleteFrom("moderation_blocked_terms").execute();
    if (unique.length > 0) {
      await trx
        .insertInto("moderation_blocked_terms")
        .values(unique.map((term, position) => ({ term, position })))
        .execute();
    }
  });
  return { terms: unique };
}
