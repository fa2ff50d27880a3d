import { createRoute } from "@tanstack/react-router";
import { ApiKeysPage } from "../pages/api-keys/api-keys-page";
import { signedInRoute } from "./root";

/** `/console/api-keys`. */
export const apiKeysRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "api-keys",
  component: ApiKeysPage,
});
