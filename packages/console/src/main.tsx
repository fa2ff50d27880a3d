/** The console's entry: the query cache, the language and the router, mounted into index.html. */
import { matchQuery, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { type ConsoleErrorCode, errorCodeOf } from "./api/console-api";
import { meQuery } from "./api/session";
import { I18nProvider } from "./i18n/i18n";
import { router } from "./routes/router";
import "./styles.css";

const ME_CHANGES: ReadonlySet<ConsoleErrorCode> = new Set<ConsoleErrorCode>([
  "CONSOLE_UNAUTHORIZED",
  "TENANT_SUSPENDED",
  "CONSOLE_TWO_FACTOR_ENROLLMENT_REQUIRED",
]);

const queryClient: QueryClient = new QueryClient({
  // A session that ended (signed out elsewhere, expired, the person removed) makes any call answer
  // CONSOLE_UNAUTHORIZED, a suspended merchant TENANT_SUSPENDED, a new requirement of two-step sign-in
  // CONSOLE_TWO_FACTOR_ENROLLMENT_REQUIRED: asking getMe again lets the signed-in frame show what to do.
  queryCache: new QueryCache({
    onError: (error, query) => {
      const code = errorCodeOf(error);
      if (code !== undefined && ME_CHANGES.has(code) && !matchQuery({ queryKey: meQuery.queryKey }, query))
        void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  }),
  defaultOptions: {
    queries: {
      // An error answer of the console API is final (a person's input or state); a network failure is retried.
      retry: (failureCount, error) => errorCodeOf(error) === undefined && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const root = document.getElementById("root");
if (root === null) throw new Error("index.html has no #root");
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <RouterProvider router={router} />
      </I18nProvider>
    </QueryClientProvider>
  </StrictMode>,
);
