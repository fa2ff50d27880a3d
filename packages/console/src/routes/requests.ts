import { createRoute } from "@tanstack/react-router";
import { requestSearch } from "../pages/requests/request-search";
import { RequestsPage } from "../pages/requests/requests-page";
import { signedInRoute } from "./root";

/** `/console/requests?status=...&errorCode=...`: the request log and its filters. */
export const requestsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "requests",
  validateSearch: requestSearch,
  component: RequestsPage,
});
