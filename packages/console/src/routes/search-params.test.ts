/**
 * The search parameters of the console's addresses, read as the router reads them (TanStack Router's default
 * search parser, then the route's validateSearch schema): what a reload, a shared link or back shows.
 */
import { defaultParseSearch } from "@tanstack/react-router";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { requestSearch } from "../pages/requests/request-search";
import { FIRST_VIEWER_SEARCH, firstPage, viewerQueryBody, viewerSearch } from "../pages/watch-data/viewer-search";
import { signInSearch } from "./return-address";

const read = (schema: v.GenericSchema, search: string) => v.parse(schema, defaultParseSearch(search));
const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe("the watch-data page's address (queryViewers' query and pages)", () => {
  it.each([
    ["no parameters: the first page of the default query", "", FIRST_VIEWER_SEARCH],
    [
      "page 3 of the replay's viewers, ten a page",
      `?mode=REPLAY&pageSize=10&cursors=${json(["c2", "c3"])}`,
      { mode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 10, cursors: ["c2", "c3"] },
    ],
    [
      "sort and every filter",
      `?sort=FIRST_WATCHED_ASC&uids=${json([3, 7])}&externalUserIds=${json(["watch-5"])}&minWatchSeconds=1000`,
      {
        ...FIRST_VIEWER_SEARCH,
        sort: "FIRST_WATCHED_ASC",
        uids: [3, 7],
        externalUserIds: ["watch-5"],
        minWatchSeconds: 1000,
      },
    ],
    [
      "a mode the document does not have: the first page",
      `?mode=SOMETIMES&cursors=${json(["c2"])}`,
      FIRST_VIEWER_SEARCH,
    ],
    ["a page size the table does not offer", "?pageSize=7", FIRST_VIEWER_SEARCH],
    [
      "more ids than queryViewers takes",
      `?uids=${json(Array.from({ length: 301 }, (_, i) => i + 1))}`,
      FIRST_VIEWER_SEARCH,
    ],
    ["a negative minimum", "?minWatchSeconds=-1", FIRST_VIEWER_SEARCH],
    ["a uid that is no number", `?uids=${json(["x"])}`, FIRST_VIEWER_SEARCH],
  ])("%s", (_name, search, expected) => {
    expect(read(viewerSearch, search)).toEqual(expected);
  });

  const pageThree = read(viewerSearch, `?mode=REPLAY&pageSize=10&cursors=${json(["c2", "c3"])}`) as v.InferOutput<
    typeof viewerSearch
  >;
  it("asks queryViewers for the page shown: the last cursor of the address", () => {
    expect(viewerQueryBody(pageThree)).toEqual({
      mode: "REPLAY",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
      cursor: "c3",
    });
    expect(viewerQueryBody(FIRST_VIEWER_SEARCH)).not.toHaveProperty("cursor");
  });
  it("drops the cursors when the mode changes: a cursor belongs to the query that answered it", () => {
    expect(viewerQueryBody(firstPage({ ...pageThree, mode: "LIVE" }))).toEqual({
      mode: "LIVE",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
    });
  });
});

describe("the request log's address (listRequests' filters)", () => {
  it.each([
    ["no filter", "", {}],
    ["a status, which the router reads as a number", "?status=401", { status: "401" }],
    ["a class of statuses", "?status=4xx", { status: "4xx" }],
    [
      "error code, operation, key and request id",
      "?errorCode=NONE&operationId=upsertViewer&apiKey=wk_1&requestId=req-1",
      { errorCode: "NONE", operationId: "upsertViewer", apiKey: "wk_1", requestId: "req-1" },
    ],
    ["a blank filter: no filter at all", "?requestId=%20%20", {}],
    ["a filter that is no text", `?status=${json([401])}`, {}],
  ])("%s", (_name, search, expected) => {
    expect(read(requestSearch, search)).toEqual(expected);
  });
});

describe("sign-in's way back (next)", () => {
  it.each([
    ["a console page", "?next=%2Fconsole%2Frequests", { next: "/console/requests" }],
    [
      "a console page with its search",
      `?next=${encodeURIComponent("/console/webinars/w-1?mode=LIVE")}`,
      { next: "/console/webinars/w-1?mode=LIVE" },
    ],
    ["never another site", "?next=https%3A%2F%2Fevil.example", {}],
    ["never a protocol-relative address", "?next=%2F%2Fevil.example", {}],
    ["never a backslash, which browsers read as a slash", "?next=%2Fconsole%2F%5C%5Cevil.example", {}],
    ["never a page outside the console", "?next=%2Fadmin%2Fv1", {}],
  ])("%s", (_name, search, expected) => {
    expect(read(signInSearch, search)).toEqual(expected);
  });
});
