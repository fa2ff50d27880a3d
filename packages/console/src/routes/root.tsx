/**
 * The root of the console's routes. Each page is one route file in this folder, added to the tree in router.ts:
 * the pages before signing in under `publicRoute`, every other page under `signedInRoute`, which asks for a session.
 * An address no route matches is "not found", shown to a signed-in person.
 */
import { createRootRoute, createRoute, Outlet } from "@tanstack/react-router";
import { PublicShell } from "../components/shell";
import { SignedIn } from "../components/signed-in";
import { NotFoundPage } from "../pages/not-found-page";

export const rootRoute = createRootRoute({
  notFoundComponent: () => (
    <SignedIn>
      <NotFoundPage />
    </SignedIn>
  ),
});

/** The invite and sign-in pages: for anyone, in the frame without navigation. */
export const publicRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "public",
  component: () => (
    <PublicShell>
      <Outlet />
    </PublicShell>
  ),
});

/** Every other page: for a signed-in person only. */
export const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "signed-in",
  component: () => (
    <SignedIn>
      <Outlet />
    </SignedIn>
  ),
});
