import { createRoute } from "@tanstack/react-router";
import { InvitePage } from "../pages/invite-page";
import { publicRoute } from "./root";

/** `/console/invite#token=...`: the token is in the fragment, which the page reads and removes. */
export const inviteRoute = createRoute({ getParentRoute: () => publicRoute, path: "invite", component: InvitePage });
