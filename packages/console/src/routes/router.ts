/**
 * The console's router (TanStack Router): the route tree under the app's base (`/console/`), with each page's
 * search parameters validated by its route. A new page is a route file in this folder and a line in the tree.
 */
import { createRouter } from "@tanstack/react-router";
import { apiKeysRoute } from "./api-keys";
import { inviteRoute } from "./invite";
import { peopleRoute } from "./people";
import { requestsRoute } from "./requests";
import { BASE_PATH } from "./return-address";
import { publicRoute, rootRoute, signedInRoute } from "./root";
import { sessionsRoute } from "./sessions";
import { signInRoute } from "./sign-in";
import { twoStepRoute } from "./two-step";
import { watchDataRoute } from "./watch-data";
import { indexRoute, webinarsRoute } from "./webinars";

const routeTree = rootRoute.addChildren([
  indexRoute,
  publicRoute.addChildren([inviteRoute, signInRoute]),
  signedInRoute.addChildren([
    webinarsRoute,
    watchDataRoute,
    apiKeysRoute,
    requestsRoute,
    peopleRoute,
    twoStepRoute,
    sessionsRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  basepath: BASE_PATH,
  // Back and forward return to where the page was scrolled; a new page starts at the top.
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
