import { describe, expect, it } from "vitest";
import { parseRoute, type Route, routeHref } from "./routes";

describe("console routes", () => {
  const cases: [name: string, path: string, search: string, route: Route][] = [
    ["the root opens the webinars", "/console/", "", { page: "webinars" }],
    ["an invite link (its token is in the fragment, not here)", "/console/invite", "", { page: "invite" }],
    [
      "a deep link to a webinar's watch data",
      "/console/webinars/wbn-7Hq2",
      "",
      { page: "watchData", ticketCode: "wbn-7Hq2" },
    ],
    [
      "sign-in returns to a console page",
      "/console/sign-in",
      "?next=%2Fconsole%2Frequests",
      { page: "signIn", next: "/console/requests" },
    ],
    [
      "sign-in never returns to another site",
      "/console/sign-in",
      "?next=https%3A%2F%2Fevil.example",
      { page: "signIn" },
    ],
    [
      "sign-in never returns to a protocol-relative address",
      "/console/sign-in",
      "?next=%2F%2Fevil.example",
      { page: "signIn" },
    ],
    ["an unknown page", "/console/nope/deeper/still", "", { page: "notFound" }],
  ];
  it.each(cases)("%s", (_name, path, search, route) => {
    expect(parseRoute(path, search)).toEqual(route);
  });

  const pages: Route[] = [
    { page: "apiKeys" },
    { page: "requests" },
    { page: "webinars" },
    { page: "watchData", ticketCode: "a_b-1" },
    { page: "signIn", next: "/console/api-keys" },
  ];
  it.each(pages)("%o survives a round trip through its address", (route) => {
    const address = new URL(routeHref(route), "http://console.test");
    expect(parseRoute(address.pathname, address.search)).toEqual(route);
  });
});
