import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** The parsed spec, loosely typed: the tests below check its shape rather than assume it. */

export type Loose = any;

export const specText = readFileSync(new URL("../openapi.yaml", import.meta.url), "utf8");
export const spec: Loose = parse(specText);

/** Follows a local `#/components/...` reference. */
export function resolve(node: Loose): Loose {
  if (!node || typeof node.$ref !== "string" || !node.$ref.startsWith("#/")) return node;
  return resolve(
    node.$ref
      .slice(2)
      .split("/")
      .reduce((at: Loose, key: string) => at?.[key], spec),
  );
}

/** Every operation as [operationId, path, operation object]. */
export const operations: Array<[string, string, Loose]> = Object.entries(spec.paths as Record<string, Loose>).map(
  ([path, item]) => [item.post.operationId, path, item.post],
);
