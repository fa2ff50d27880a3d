/**
 * The console API's types (`paths`, `components`, `operations`): the ones the server's generator writes from
 * packages/server/console-openapi.yaml into packages/server/src/console/console-openapi.gen.ts, so one generated
 * file types both the server's handlers and this app's calls. It is reached by a relative path, as this package's
 * generator and tests reach the server's folder, not through a dependency on @org/webinar-server: the server's
 * build copies this app's built files into its package (packages/server/turbo.json builds the console first), so
 * a dependency back would be a cycle. Types only: Vite erases them, and nothing of the server enters the bundle.
 */
export type { components, operations, paths } from "../../../server/src/console/console-openapi.gen";
