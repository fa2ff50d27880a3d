/**
 * `pnpm check:api-changes`: the classifier (tools/build/src/api-changes) on edits of the real spec, one named case per
 * rule, each judged for clients and for servers; the check against the pending changesets; and the command itself
 * on temporary checkouts (test/support/checkout.ts), so no edit or changeset is ever left in this repository.
 */
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { type ApiChange, diffApi, type JsonObject, readApiDocument } from "@org/webinar-build/api-changes";
import { checkApiChanges } from "../lib/api-changes-check.ts";
import { type Checkout, repoRoot, temporaryCheckout } from "./support/checkout.ts";

const current = readApiDocument(`${repoRoot}/spec/openapi.yaml`);
type Loose = any;
/** A deep copy of the current spec, edited. */
const edited = (edit: (document: Loose) => void): JsonObject => {
  const copy = structuredClone(current) as Loose;
  edit(copy);
  return copy;
};
const schemas = (document: Loose) => document.components.schemas;
const operation = (document: Loose, path: string) => document.paths[`/api/v1/open/${path}`].post;
const only = (changes: ApiChange[]) => {
  expect(changes).toHaveLength(1);
  return changes[0]!;
};

interface Case {
  name: string;
  edit: (document: Loose) => void;
  expected: Partial<ApiChange>;
}

const cases: Case[] = [
  {
    name: "queryViewerWatch: a request enum value removed breaks clients (major)",
    edit: (d) => schemas(d).Sort.enum.pop(),
    expected: {
      where: "queryViewerWatch request `sort` (schema `Sort`)",
      what: "no longer accepts `FIRST_WATCHED_ASC`",
      clients: "breaking",
      servers: "compatible",
      level: "major",
    },
  },
  {
    name: "queryViewerWatch: a request enum value added is minor, servers must accept it",
    edit: (d) => schemas(d).Sort.enum.push("NAME_ASC"),
    expected: { what: "accepts the new value `NAME_ASC`", clients: "compatible", servers: "breaking", level: "minor" },
  },
  {
    name: "getWatchOverview: a new response enum value breaks exhaustive clients (major)",
    edit: (d) => schemas(d).DataState.enum.push("ARCHIVED"),
    expected: {
      where: "getWatchOverview response `data.dataState` (schema `DataState`)",
      what: "may return the new value `ARCHIVED`",
      clients: "breaking",
      level: "major",
    },
  },
  {
    name: "getWatchOverview: a response enum value removed is minor",
    edit: (d) => schemas(d).DataState.enum.splice(1, 1),
    expected: { what: "no longer returns `FINALIZING`", clients: "compatible", servers: "breaking", level: "minor" },
  },
  {
    name: "upsertViewer: a narrowed request limit breaks clients (major)",
    edit: (d) => {
      schemas(d).ExternalUserId.maxLength = 100;
    },
    expected: {
      where: "upsertViewer request `externalUserId` (schema `ExternalUserId`)",
      what: "`maxLength` 191 → 100",
      level: "major",
    },
  },
  {
    name: "queryViewerWatch: a widened request limit is minor",
    edit: (d) => {
      schemas(d).QueryViewerWatchRequest.properties.pageSize.maximum = 500;
    },
    expected: {
      where: "queryViewerWatch request `pageSize`",
      what: "`maximum` 100 → 500",
      clients: "compatible",
      servers: "breaking",
      level: "minor",
    },
  },
  {
    name: "queryViewerWatch: fewer uids per request breaks clients (major)",
    edit: (d) => {
      schemas(d).QueryViewerWatchRequest.properties.uids.maxItems = 200;
    },
    expected: { what: "`maxItems` 300 → 200", level: "major" },
  },
  {
    name: "issueLoginTicket: a new required request field breaks clients and servers (major)",
    edit: (d) => {
      schemas(d).IssueLoginTicketRequest.properties.note = { type: "string" };
      schemas(d).IssueLoginTicketRequest.required.push("note");
    },
    expected: {
      where: "issueLoginTicket request `note`",
      what: "new required field",
      clients: "breaking",
      servers: "breaking",
      level: "major",
    },
  },
  {
    name: "issueLoginTicket: a new optional request field is minor",
    edit: (d) => {
      schemas(d).IssueLoginTicketRequest.properties.note = { type: "string" };
    },
    expected: { what: "new optional field", clients: "compatible", servers: "breaking", level: "minor" },
  },
  {
    name: "upsertViewer: an existing request field made required breaks clients (major)",
    edit: (d) => schemas(d).UpsertViewerRequest.required.push("phone"),
    expected: { where: "upsertViewer request `phone`", what: "now required", level: "major" },
  },
  {
    name: "issueLoginTicket: a response field removed breaks clients (major)",
    edit: (d) => {
      delete schemas(d).LoginTicket.properties.loginTicket;
      schemas(d).LoginTicket.required.shift();
    },
    expected: {
      where: "issueLoginTicket response `data.loginTicket`",
      what: "field removed",
      clients: "breaking",
      level: "major",
    },
  },
  {
    name: "issueLoginTicket: a new optional response field is minor and compatible",
    edit: (d) => {
      schemas(d).LoginTicket.properties.issuedAt = { $ref: "#/components/schemas/UtcTimestamp" };
    },
    expected: { what: "new field", clients: "compatible", servers: "compatible", level: "minor" },
  },
  {
    name: "upsertViewer: a request type narrowed (null no longer accepted) breaks clients (major)",
    edit: (d) => {
      schemas(d).UpsertViewerRequest.properties.displayName.type = "string";
    },
    expected: { what: "type string or null → string", level: "major" },
  },
  {
    name: "queryViewerWatch: a response value that may now be null breaks clients (major)",
    edit: (d) => {
      schemas(d).ViewerWatchRecord.properties.displayName.type = ["string", "null"];
    },
    expected: { what: "type string → string or null", clients: "breaking", servers: "compatible", level: "major" },
  },
  {
    name: "issueLoginTicket: a narrowed request pattern breaks clients (major), and is minor where the value is returned",
    edit: (d) => {
      schemas(d).TicketCode.pattern = "^[A-Za-z0-9-]+$";
    },
    expected: { what: "pattern `^[A-Za-z0-9_-]+$` → `^[A-Za-z0-9-]+$`: accepts fewer strings", level: "major" },
  },
  {
    name: "upsertViewer: x-no-lone-surrogates dropped widens the request text rule (minor)",
    edit: (d) => {
      delete schemas(d).ExternalUserId["x-no-lone-surrogates"];
    },
    expected: {
      what: "lone surrogates accepted: accepts more strings",
      clients: "compatible",
      servers: "breaking",
      level: "minor",
    },
  },
  {
    name: "queryViewerWatch: a format narrowing the range breaks clients (major)",
    edit: (d) => {
      schemas(d).QueryViewerWatchRequest.properties.minWatchSeconds = { $ref: "#/components/schemas/Uid" };
    },
    expected: { level: "major" },
  },
  {
    name: "every operation's errors: a new error code breaks clients (major), once for all its places",
    edit: (d) => schemas(d).ErrorCode.enum.push("RATE_LIMITED"),
    expected: { what: "may return the new value `RATE_LIMITED`", level: "major" },
  },
  {
    name: "queryViewerWatch: a new code in a response's x-error-codes breaks clients (major)",
    edit: (d) => operation(d, "watch-data/viewers/query").responses["404"]["x-error-codes"].push("VIEWER_NOT_FOUND"),
    expected: {
      where: "queryViewerWatch response",
      what: "may answer the new error code `VIEWER_NOT_FOUND`",
      level: "major",
    },
  },
  {
    name: "the error catalog: a code's HTTP status changed breaks everyone (major)",
    edit: (d) => {
      schemas(d).ErrorCode["x-httpStatus"].WATCH_DATA_NOT_FINAL = 425;
    },
    expected: {
      what: "`WATCH_DATA_NOT_FINAL`: HTTP status `409` → `425`",
      clients: "breaking",
      servers: "breaking",
      level: "major",
    },
  },
  {
    name: "queryViewerWatch: the code a field's violations answer changed breaks everyone (major)",
    edit: (d) => {
      delete schemas(d).QueryViewerWatchRequest.properties.cursor["x-error-code"];
    },
    expected: { what: "violations answer `REQUEST_INVALID` instead of `WATCH_REQUEST_INVALID`", level: "major" },
  },
  {
    name: "getWatchOverview: a removed operation breaks clients (major)",
    edit: (d) => {
      delete d.paths["/api/v1/open/watch-data/overview"];
    },
    expected: {
      where: "getWatchOverview",
      what: "operation removed (POST /api/v1/open/watch-data/overview)",
      level: "major",
    },
  },
  {
    name: "getWatchOverview: a new error status breaks exhaustive clients (major)",
    edit: (d) => {
      operation(d, "watch-data/overview").responses["429"] = operation(d, "watch-data/overview").responses["409"];
    },
    expected: { what: "may answer the new status 429", level: "major" },
  },
  {
    name: "getWatchOverview: an error status removed is minor",
    edit: (d) => {
      delete operation(d, "watch-data/overview").responses["404"];
    },
    expected: { what: "no longer answers 404", clients: "compatible", servers: "breaking", level: "minor" },
  },
  {
    name: "x-limits: a smaller body limit breaks clients (major)",
    edit: (d) => {
      d["x-limits"].maxBodyBytes = 65536;
    },
    expected: { where: "the document", what: "limit `maxBodyBytes` 1048576 → 65536", level: "major" },
  },
  {
    name: "x-limits: a longer minimum nonce breaks clients (major)",
    edit: (d) => {
      d["x-limits"].nonceMinLength = 32;
    },
    expected: { level: "major" },
  },
  {
    name: "x-limits: an example value changed is documentation (patch)",
    edit: (d) => {
      d["x-limits"].loginTicketTtlSecondsExample = 120;
    },
    expected: { level: "patch" },
  },
  {
    name: "the document: a security scheme changed breaks everyone (major)",
    edit: (d) => {
      d.components.securitySchemes.Nonce.name = "X-Request-Nonce";
    },
    expected: { what: "security requirements or schemes changed", level: "major" },
  },
  {
    name: "a keyword the checker does not know breaks everyone until judged (major)",
    edit: (d) => {
      schemas(d).NonNegativeInteger.multipleOf = 1;
    },
    expected: { what: "`multipleOf` changed", clients: "breaking", servers: "breaking", level: "major" },
  },
  {
    name: "upsertViewer: a description only is documentation (patch)",
    edit: (d) => {
      schemas(d).ExternalUserId.description = "Your user's id.";
    },
    expected: {
      what: "descriptions or examples changed",
      clients: "compatible",
      servers: "compatible",
      level: "patch",
    },
  },
  {
    name: "issueLoginTicket: a request example changed is documentation (patch)",
    edit: (d) => {
      operation(d, "viewers/login-tickets").requestBody.content["application/json"].examples.issue.value.uid = 4821938;
    },
    expected: { what: "examples changed", level: "patch" },
  },
];

describe("the API-change classifier", () => {
  it("finds no change between the spec and itself, nor in info.version alone", () => {
    expect(diffApi(current, current)).toEqual([]);
    expect(
      diffApi(
        current,
        edited((d) => {
          d.info.version = "9.0.0";
        }),
      ),
    ).toEqual([]);
  });

  it.each(cases)("$name", ({ edit, expected }) => {
    const changes = diffApi(current, edited(edit));
    expect(changes.length).toBeGreaterThan(0);
    expect(changes[0]).toMatchObject(expected);
  });

  it("one change of a shared schema names each place it reaches, once", () => {
    const change = only(
      diffApi(
        current,
        edited((d) => schemas(d).ErrorCode.enum.push("RATE_LIMITED")),
      ),
    );
    expect(change.where).toBe(
      "upsertViewer response `error.code`, issueLoginTicket response `error.code`, getWatchOverview response " +
        "`error.code` and queryViewerWatch response `error.code` (schema `ErrorCode`)",
    );
  });

  it("a schema shared by a request and a response is judged in each direction", () => {
    const changes = diffApi(
      current,
      edited((d) => {
        schemas(d).TicketCode.maxLength = 32;
      }),
    );
    expect(changes.map(({ where, level }) => `${level}: ${where}`)).toEqual([
      "major: issueLoginTicket request `ticketCode`, getWatchOverview request `ticketCode` and queryViewerWatch " +
        "request `ticketCode` (schema `TicketCode`)",
      "minor: getWatchOverview response `data.ticketCode` (schema `TicketCode`)",
    ]);
  });

  // Fixtures: the current spec with a request pattern put back in the form an earlier release wrote it (Unicode
  // property escapes, no `x-no-lone-surrogates`), so the rewrite is there to judge whatever the released spec is.
  it.each([
    {
      name: "upsertViewer `externalUserId`: control characters by \\p{Cc} and \\p{Cs} rewritten as \\x ranges",
      where: "upsertViewer request `externalUserId` (schema `ExternalUserId`)",
      before: (d: Loose) => {
        schemas(d).ExternalUserId.pattern = "^[^\\p{Cc}\\p{Cs}\u2028\u2029]*$";
        delete schemas(d).ExternalUserId["x-no-lone-surrogates"];
      },
    },
    {
      name: "upsertViewer `phone`: blank by \\S and \\p{Cc} rewritten as the white-space characters listed",
      where: "upsertViewer request `phone`",
      before: (d: Loose) => {
        schemas(d).UpsertViewerRequest.properties.phone.pattern = "^(?:1[3-9][0-9]{9}|[^\\S\\p{Cc}\u2028\u2029]*)$";
      },
    },
  ])("a portable rewrite of a request's text rule accepts the same strings (patch): $name", ({ where, before }) => {
    const rewrites = diffApi(edited(before), current).filter((change) => change.rule === "text-rule");
    expect(rewrites).toEqual([
      expect.objectContaining({ where, level: "patch", what: expect.stringContaining("accepts the same strings") }),
    ]);
  });
});

describe("the check against the pending changesets", () => {
  const names = ["@org/a", "@org/b"];
  const plan = (type: string) => ({
    releases: names.map((name) => ({ name, type, oldVersion: "1.0.0", newVersion: "x" })),
  });
  const breaking = diffApi(
    current,
    edited((d) => schemas(d).Sort.enum.pop()),
  );

  it("refuses a breaking change under a patch or minor changeset, naming the change", () => {
    for (const type of ["patch", "minor"]) {
      const { needed, planned, problems } = checkApiChanges(breaking, plan(type), names);
      expect({ needed, planned }).toEqual({ needed: "major", planned: type });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(
        "queryViewerWatch request `sort` (schema `Sort`): no longer accepts `FIRST_WATCHED_ASC`",
      );
    }
  });

  it("refuses API changes with no pending changeset, and counts only the public packages' releases", () => {
    expect(checkApiChanges(breaking, { releases: [] }, names).problems).toHaveLength(1);
    expect(checkApiChanges(breaking, plan("major"), ["@org/other"]).problems).toHaveLength(1);
  });

  it("accepts a major changeset, and anything when the API did not change", () => {
    expect(checkApiChanges(breaking, plan("major"), names).problems).toEqual([]);
    expect(checkApiChanges([], { releases: [] }, names)).toEqual({ needed: "none", planned: "none", problems: [] });
  });
});

describe("pnpm check:api-changes on a temporary checkout", () => {
  let checkout: Checkout | undefined;
  afterEach(() => checkout?.remove());
  const check = (root: string) => {
    const result = spawnSync("pnpm", ["exec", "tsx", "scripts/check-api-changes.ts", "--root", root], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  const removeSortValue = (text: string) => {
    const edited = text.replace(
      "enum: [WATCH_SECONDS_DESC, LAST_WATCHED_DESC, FIRST_WATCHED_ASC]",
      "enum: [WATCH_SECONDS_DESC, LAST_WATCHED_DESC]",
    );
    expect(edited).not.toBe(text);
    return edited;
  };

  it("a breaking edit with a patch changeset fails and names the change", () => {
    checkout = temporaryCheckout();
    checkout.editSpec(removeSortValue);
    checkout.addChangeset("patch", "Sorting by first watch time is gone.");
    const { status, output } = check(checkout.root);
    expect(output).toContain("queryViewerWatch request `sort` (schema `Sort`): no longer accepts `FIRST_WATCHED_ASC`");
    expect(output).toContain(
      "the API changes need a major changeset for the public packages, and the pending changesets make a patch release",
    );
    expect(status).toBe(1);
  }, 60_000);

  it("the same edit with a major changeset passes", () => {
    checkout = temporaryCheckout();
    checkout.editSpec(removeSortValue);
    checkout.addChangeset("major", "Sorting by first watch time is gone.");
    const { status, output } = check(checkout.root);
    expect(output).toContain("needed: major; the pending changesets release: major");
    expect(output).toContain("api-changes check passed");
    expect(status).toBe(0);
  }, 60_000);

  it("a description-only edit with a patch changeset passes", () => {
    checkout = temporaryCheckout();
    checkout.editSpec((text) =>
      text.replace(
        "Numeric viewer number, unique within one merchant.",
        "The viewer's number, unique within one merchant.",
      ),
    );
    checkout.addChangeset("patch", "Clearer words for uid.");
    const { status, output } = check(checkout.root);
    expect(output).toContain("[patch] Documentation:");
    expect(output).toContain("api-changes check passed");
    expect(status).toBe(0);
  }, 60_000);

  it("holds for this repository", () => {
    const { status, output } = check(repoRoot);
    expect(output).toContain("api-changes check passed");
    expect(status).toBe(0);
  }, 60_000);
});
