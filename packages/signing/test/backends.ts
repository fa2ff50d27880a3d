import type { CryptoBackend } from "../src/crypto-backend";

/** Every backend the tests run on Node: node:crypto and Web Crypto both exist here, so each is forced in turn. */
export const backends: readonly CryptoBackend[] = ["node", "web"];

/** Each case once per backend, with `backend` and the case's `name` for test titles. */
export function onEveryBackend<Case extends { name: string }>(
  cases: readonly Case[],
): (Case & { backend: CryptoBackend; vector: Case })[] {
  return backends.flatMap((backend) => cases.map((vector) => ({ ...vector, backend, vector })));
}
