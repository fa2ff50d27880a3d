import { createRoute } from "@tanstack/react-router";
import { PeoplePage } from "../pages/people/people-page";
import { signedInRoute } from "./root";

/** `/console/people`. */
export const peopleRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "people",
  component: PeoplePage,
});
