/** The console's entry: the query cache, the language, the router and the app, mounted into index.html. */
import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { errorCodeOf } from "./api/console-api";
import { App } from "./app";
import { I18nProvider } from "./i18n/i18n";
import { RouterProvider } from "./routing/router";
import "./styles.css";

const queryClient: QueryClient = new QueryClient({
  // A session that ended (signed out elsewhere, expired) makes any call answer CONSOLE_UNAUTHORIZED: asking getMe
  // again lets the app send the person to sign in.
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (errorCodeOf(error) === "CONSOLE_UNAUTHORIZED" && query.queryKey[1] !== "/console/api/me")
        void queryClient.invalidateQueries({ queryKey: ["get", "/console/api/me"] });
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
        <RouterProvider>
          <App />
        </RouterProvider>
      </I18nProvider>
    </QueryClientProvider>
  </StrictMode>,
);
