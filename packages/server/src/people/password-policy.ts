/**
 * What a new console password must be besides its length (12 to 1024 characters, the document's schema): not a
 * common password or an easy variation of one. zxcvbn (`@zxcvbn-ts/core` with the dictionaries of
 * `@zxcvbn-ts/language-common`, shipped in the package, so nothing is fetched) estimates how many guesses the
 * password takes, knowing tens of thousands of common passwords, keyboard walks, repeats, sequences, dates and
 * l33t spellings, and the person's own email; a password it guesses in fewer than 10^8 tries (its score below 3)
 * is refused. zxcvbn ranks its dictionaries when first asked, so the first check takes longer than the others.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { ServiceError } from "../errors";

/** zxcvbn's score 3: at least 10^8 guesses. */
const MIN_SCORE = 3;
/**
 * zxcvbn's work grows faster than the length (a second for 1024 random characters, a tenth of one for 40), and it
 * runs on the event loop: only this many leading characters are judged. A password whose beginning is strong is.
 */
const JUDGED_CHARACTERS = 40;

/** Made on the first check (it holds nothing but the dictionaries' rankings). */
let zxcvbn: ZxcvbnFactory | undefined;

/**
 * Throws 400 CONSOLE_PASSWORD_TOO_COMMON for a common or easily guessed password; `related` are words of the
 * person (their email) that a password should not be built from.
 *
 * @example
 * checkNewPassword("password1234", ["ana@example.com"]); // throws
 */
export function checkNewPassword(password: string, related: readonly string[]): void {
  zxcvbn ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, maxLength: JUDGED_CHARACTERS });
  const words = related.flatMap((text) => [text, ...text.split(/[@.+_-]/)]).filter((word) => word.length >= 3);
  if (zxcvbn.check(password, words).score < MIN_SCORE)
    throw new ServiceError(
      "CONSOLE_PASSWORD_TOO_COMMON",
      "this password is common or easy to guess; a few unrelated words make a strong one",
    );
}
