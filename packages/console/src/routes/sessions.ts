import { createRoute } from "@tanstack/react-router";
import { SessionsPage } from "../pages/sessions-page";
import { signedInRoute } from "./root";

/** `/console/sessions`. */
export const sessionsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "sessions",
  component: SessionsPage,
});
