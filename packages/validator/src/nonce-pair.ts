/** One (API key, nonce) pair as one string, the key of a used nonce in memory. A nonce holds no line feed. */
export function noncePair(apiKey: string, nonce: string): string {
  return `${apiKey}\n${nonce}`;
}
