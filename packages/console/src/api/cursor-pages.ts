/**
 * Cursor pages of a list operation (listAuditEvents, listRequests, listWebinars): TanStack Query's infinite query
 * over an openapi-fetch call. Not openapi-react-query's `useInfiniteQuery`, which sends a first-page cursor of `0`
 * when there is none, where these operations want no cursor at all.
 */
import { useInfiniteQuery } from "@tanstack/react-query";

interface CursorPage {
  nextCursor?: string;
}

/** openapi-fetch's answer as a query wants it: the data, or the error envelope thrown. */
export function dataOrThrow<Data>(answer: { data?: Data; error?: unknown }): Data {
  if (answer.error !== undefined) throw answer.error;
  return answer.data as Data;
}

/**
 * Every page fetched so far; `queryKey` starts with `["get", path]` like openapi-react-query's keys, so an
 * invalidation of the path reaches it too.
 */
export function useCursorPages<Page extends CursorPage>(
  queryKey: readonly unknown[],
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page>,
  options: { refetchInterval?: (pagesLoaded: number) => number | false } = {},
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: Page) => page.nextCursor,
    ...(options.refetchInterval === undefined
      ? {}
      : {
          refetchInterval: (query: { state: { data: { pages: unknown[] } | undefined } }) =>
            options.refetchInterval!(query.state.data?.pages.length ?? 0),
        }),
  });
}
