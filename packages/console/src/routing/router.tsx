/**
 * A small history-API router: the console has a handful of flat pages, so a route is one value parsed from the
 * address (routes.ts), and links push a new history entry without a reload.
 */
import { createContext, type MouseEvent, type ReactNode, useCallback, useContext, useEffect, useState } from "react";
import { parseRoute, type Route, routeHref } from "./routes";

interface RouterValue {
  route: Route;
  navigate(route: Route, options?: { replace?: boolean }): void;
}

const RouterContext = createContext<RouterValue | null>(null);

function currentRoute(): Route {
  return parseRoute(window.location.pathname, window.location.search);
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const onPopState = () => setRoute(currentRoute());
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, []);
  const navigate = useCallback((next: Route, options: { replace?: boolean } = {}) => {
    const href = routeHref(next);
    if (options.replace === true) window.history.replaceState(null, "", href);
    else window.history.pushState(null, "", href);
    setRoute(parseRoute(window.location.pathname, window.location.search));
    window.scrollTo(0, 0);
  }, []);
  return <RouterContext.Provider value={{ route, navigate }}>{children}</RouterContext.Provider>;
}

export function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (value === null) throw new Error("useRouter needs a RouterProvider");
  return value;
}

/** A link to a console page: a real `<a href>` (open in a new tab works), followed in place on a plain click. */
export function Link({
  to,
  children,
  className,
  current,
}: {
  to: Route;
  children: ReactNode;
  className?: string;
  /** Marks the link of the page shown (aria-current). */
  current?: boolean;
}) {
  const { navigate } = useRouter();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a
      href={routeHref(to)}
      onClick={onClick}
      className={className}
      aria-current={current === true ? "page" : undefined}
    >
      {children}
    </a>
  );
}
