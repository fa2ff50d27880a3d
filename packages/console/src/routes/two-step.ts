import { createRoute } from "@tanstack/react-router";
import { TwoStepPage } from "../pages/two-step/two-step-page";
import { signedInRoute } from "./root";

/** `/console/two-step-sign-in`. */
export const twoStepRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "two-step-sign-in",
  component: TwoStepPage,
});
