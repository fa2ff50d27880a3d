/**
 * Which operation a request path names (the operations: "path exactly as given, no query string, no trailing slash,
 * no percent-encoding"). Checked on the request target exactly as received, before any router normalizes it:
 * the client signs the path it sends (Signing requests), so a path that only a lenient router would map to an operation
 * is answered 401 `OPEN_API_UNAUTHORIZED` ("non-canonical path", Signing requests), and a path that is no operation at
 * all 404.
 */
import { operations, type OperationId } from "@org/webinar-types";

/** How a request path relates to the spec's operations. */
export type PathMatch =
  | { kind: "operation"; operationId: OperationId }
  | { kind: "nonCanonical"; operationId: OperationId }
  | { kind: "unknown" };

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

function percentDecoded(path: string): string {
  let decoded = path;
  // A few rounds undo double encoding (%252F); a malformed escape stops decoding, the rest is compared as is.
  for (let round = 0; round < 3 && decoded.includes("%"); round += 1) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  return decoded;
}

/**
 * The path as a lenient router would see it: host, query and fragment dropped, percent-decoded, lowercased,
 * backslashes as slashes, empty and dot segments resolved, no trailing slash.
 */
function looseForm(rawPath: string): string {
  let path = rawPath.replace(ABSOLUTE_FORM, "");
  const end = path.search(/[?#]/);
  if (end >= 0) path = path.slice(0, end);
  const segments: string[] = [];
  for (const segment of percentDecoded(path).replaceAll("\\", "/").toLowerCase().split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

const UNKNOWN: PathMatch = Object.freeze({ kind: "unknown" });

/** Classifies a raw request target; see {@link createOperationPathMatcher}. */
export type OperationPathMatcher = (rawPath: string) => PathMatch;

/**
 * A matcher for a deployment whose operations live under `basePath` (a reverse proxy that forwards
 * `/webinar/api/v1/...` unchanged: clients sign the real path, prefix included, CONTRIBUTING.md). `basePath` is
 * `""` (the default) or a path such as `/webinar`: a leading slash, no trailing slash, no query.
 *
 * @example
 * const match = createOperationPathMatcher("/webinar");
 * match("/webinar/api/v1/open/viewers/upsert"); // { kind: "operation", operationId: "upsertViewer" }
 * match("/api/v1/open/viewers/upsert");         // { kind: "unknown" }
 */
export function createOperationPathMatcher(basePath = ""): OperationPathMatcher {
  if (basePath !== "" && !/^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/.test(basePath)) {
    throw new TypeError(
      `basePath must be "" or a path like "/webinar" (leading slash, no trailing slash, no query), got ${JSON.stringify(basePath)}`,
    );
  }
  const canonicalPaths = new Map<string, PathMatch>();
  const looseOperationPaths = new Map<string, PathMatch>();
  for (const [operationId, operation] of Object.entries(operations) as Array<[OperationId, { path: string }]>) {
    canonicalPaths.set(`${basePath}${operation.path}`, Object.freeze({ kind: "operation", operationId }));
    looseOperationPaths.set(
      looseForm(`${basePath}${operation.path}`),
      Object.freeze({ kind: "nonCanonical", operationId }),
    );
  }
  return (rawPath) => canonicalPaths.get(rawPath) ?? looseOperationPaths.get(looseForm(rawPath)) ?? UNKNOWN;
}

/**
 * Classifies the raw request target (path and query exactly as received, e.g. Node's `req.url`) of a deployment
 * without a base path.
 *
 * @example
 * matchOperationPath("/api/v1/open/viewers/upsert");   // { kind: "operation", operationId: "upsertViewer" }
 * matchOperationPath("/api/v1/open/viewers/upsert/");  // { kind: "nonCanonical", operationId: "upsertViewer" }
 * matchOperationPath("/api/v1/open/viewers");          // { kind: "unknown" }
 */
export const matchOperationPath: OperationPathMatcher = createOperationPathMatcher();
