/** Who is signed in (getMe), shared by the shell, the role checks of each page and the language choice. */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { consoleApi, type Schemas } from "./console-api";

export type Me = Schemas["Me"];

/**
 * How often an open page asks getMe again: a person removed, a session ended elsewhere or a merchant suspended
 * shows within this time even on a page that makes no other request (and at once when the window gets focus).
 */
export const ME_REFRESH_MS = 15_000;

/** getMe; fails with CONSOLE_UNAUTHORIZED without a session (never retried). */
export const meQuery = consoleApi.queryOptions(
  "get",
  "/console/api/me",
  {},
  { retry: false, staleTime: 60_000, refetchInterval: ME_REFRESH_MS, refetchOnWindowFocus: "always" },
);

/** The signed-in person. */
export function useMe() {
  return useQuery(meQuery);
}

/** Whether the signed-in person may change anything (OWNER); an ANALYST reads only. */
export function useCanChange(): boolean {
  return useMe().data?.role === "OWNER";
}

/** After signing in or out: forget every cached answer, so nothing of the previous person stays on screen. */
export function useResetSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    queryClient.clear();
  };
}
