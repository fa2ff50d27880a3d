import { createRoute, lazyRouteComponent, stripSearchParams } from "@tanstack/react-router";
import { FIRST_VIEWER_SEARCH, viewerSearch } from "../pages/watch-data/viewer-search";
import { signedInRoute } from "./root";

/**
 * `/console/webinars/{ticketCode}?mode=...&sort=...&cursors=[...]`: a webinar's watch data, a deep link that works
 * on a fresh load. The page draws charts: it and the chart library load only when it is opened.
 */
export const watchDataRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "webinars/$ticketCode",
  validateSearch: viewerSearch,
  search: { middlewares: [stripSearchParams(FIRST_VIEWER_SEARCH)] },
  component: lazyRouteComponent(() => import("../pages/watch-data/watch-data-page")),
});
