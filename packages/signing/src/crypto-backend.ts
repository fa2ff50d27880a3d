/**
 * Which implementation computes hashes and HMACs. node:crypto, which Node, Bun and Deno provide, answers
 * synchronously, so it is used wherever the runtime has it; Web Crypto (`crypto.subtle`) serves browsers and Workers.
 * node:crypto is reached through `process.getBuiltinModule`, which bundlers leave alone, so this entry has no
 * `node:*` import and still bundles for browsers and Workers. Both backends reproduce every shipped test vector.
 */

/** The implementation that computes hashes: node:crypto or Web Crypto. */
export type CryptoBackend = "node" | "web";

/** `auto` picks node:crypto when the runtime offers it, Web Crypto otherwise. */
export type CryptoPreference = CryptoBackend | "auto";

/** A node:crypto `KeyObject`; only passed back to node:crypto. */
export type NodeKeyObject = object;

/** The part of node:crypto the signing code uses. */
export interface NodeCrypto {
  createHash(algorithm: "sha256"): { update(data: Uint8Array | string): { digest(encoding: "hex"): string } };
  createHmac(
    algorithm: "sha256",
    key: NodeKeyObject,
  ): { update(data: string, encoding: "utf8"): { digest(encoding: "hex"): string } };
  createSecretKey(key: Uint8Array): NodeKeyObject;
}

/** node:crypto of the running runtime, or undefined where there is none (browsers, Workers). */
export function builtinNodeCrypto(): NodeCrypto | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const module = runtime?.getBuiltinModule?.("node:crypto") as Partial<NodeCrypto> | undefined;
  return typeof module?.createHmac === "function" ? (module as NodeCrypto) : undefined;
}

/** node:crypto when `preference` allows it and the runtime has it; undefined means Web Crypto. */
export function chooseNodeCrypto(preference: CryptoPreference): NodeCrypto | undefined {
  if (preference === "web") return undefined;
  const nodeCrypto = builtinNodeCrypto();
  if (nodeCrypto === undefined && preference === "node") {
    throw new TypeError('crypto backend "node" needs a runtime that provides node:crypto (Node, Bun, Deno)');
  }
  return nodeCrypto;
}
