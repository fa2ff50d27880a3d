import { createRoute, redirect } from "@tanstack/react-router";
import { WebinarsPage } from "../pages/webinars/webinars-page";
import { rootRoute, signedInRoute } from "./root";

/** `/console/webinars`, the first page. */
export const webinarsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "webinars",
  component: WebinarsPage,
});

/** `/console/` opens the webinars. */
export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/webinars", replace: true });
  },
});
