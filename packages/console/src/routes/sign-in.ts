import { createRoute } from "@tanstack/react-router";
import { SignInPage } from "../pages/sign-in-page";
import { signInSearch } from "./return-address";
import { publicRoute } from "./root";

/** `/console/sign-in?next=<a console address>`. */
export const signInRoute = createRoute({
  getParentRoute: () => publicRoute,
  path: "sign-in",
  validateSearch: signInSearch,
  component: SignInPage,
});
