/** Who is signed in (getMe), shared by the shell, the role checks of each page and the language choice. */
import { useQueryClient } from "@tanstack/react-query";
import { consoleApi, type Schemas } from "./console-api";

export type Me = Schemas["Me"];

/** The signed-in person; fails with CONSOLE_UNAUTHORIZED without a session (never retried). */
export function useMe() {
  return consoleApi.useQuery("get", "/console/api/me", {}, { retry: false, staleTime: 60_000 });
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
