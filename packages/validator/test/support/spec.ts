/** The spec document for tests that check the validators against its own examples. */
import { loadSpec } from "../../scripts/spec-schemas";

type Loose = any;

export const spec: Loose = loadSpec().document;

/** Follows a local `#/...` reference. */
export function resolve(node: Loose): Loose {
  if (!node || typeof node.$ref !== "string" || !node.$ref.startsWith("#/")) return node;
  return resolve(
    node.$ref
      .slice(2)
      .split("/")
      .reduce((at: Loose, key: string) => at?.[key], spec),
  );
}

/** Every operation as [operationId, operation object]. */
export const specOperations: Array<[string, Loose]> = Object.values(spec.paths as Record<string, Loose>).map((item) => [
  item.post.operationId,
  item.post,
]);

/** Every named example of a media type object, references resolved. */
export function examplesOf(content: Loose): Array<[string, unknown]> {
  return Object.entries((content?.["application/json"]?.examples ?? {}) as Record<string, Loose>).map(
    ([name, example]) => [name, resolve(example).value],
  );
}
