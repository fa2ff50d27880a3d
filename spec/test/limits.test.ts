import { describe, expect, it } from "vitest";
import { spec } from "./load-spec.ts";

// The x-limits extension is the one machine-readable home of the Limits guide; the schemas must agree with it
// so a changed limit cannot leave a stale literal behind.
const limits = spec["x-limits"];
const schemas = spec.components.schemas;
const query = schemas.QueryViewerWatchRequest.properties;

describe("Limits: x-limits agrees with the schemas", () => {
  it.each([
    ["UID range minimum", schemas.Uid.minimum, limits.uidMin],
    ["UID range maximum", schemas.Uid.maximum, limits.uidMax],
    ["externalUserId length", schemas.ExternalUserId.maxLength, limits.externalUserIdMaxLength],
    ["externalUserIds item length", query.externalUserIds.items.maxLength, limits.externalUserIdMaxLength],
    ["displayName length", schemas.UpsertViewerRequest.properties.displayName.maxLength, limits.displayNameMaxLength],
    ["uids at most 300", query.uids.maxItems, limits.maxCombinedIds],
    ["externalUserIds at most 300", query.externalUserIds.maxItems, limits.maxCombinedIds],
    ["pageSize minimum", query.pageSize.minimum, limits.pageSizeMin],
    ["pageSize maximum", query.pageSize.maximum, limits.pageSizeMax],
    ["cursor length", query.cursor.maxLength, limits.cursorMaxLength],
    ["nextCursor length", schemas.ViewerWatchPage.properties.nextCursor.maxLength, limits.cursorMaxLength],
    [
      "any other integer (minWatchSeconds, counts, seconds) at most",
      schemas.NonNegativeInteger.maximum,
      limits.integerMax,
    ],
  ])("%s", (_name, inSchema, inLimits) => {
    expect(inLimits).toBeTypeOf("number");
    expect(inSchema).toBe(inLimits);
  });

  it("the values are those of the Limits guide", () => {
    expect(limits).toMatchObject({
      clockSkewSeconds: 300,
      maxBodyBytes: 1048576,
      nonceMinLength: 16,
      nonceMaxLength: 128,
      externalUserIdMaxLength: 191,
      displayNameMaxLength: 80,
      uidMin: 10000,
      uidMax: 9999999,
      maxCombinedIds: 300,
      pageSizeMin: 1,
      pageSizeMax: 100,
      cursorMaxLength: 1024,
      integerMax: Number.MAX_SAFE_INTEGER,
    });
  });

  it("the Limits guide shows every x-limits value", () => {
    const guide: string = spec.tags.find((tag: { name: string }) => tag.name === "Limits").description;
    for (const [name, value] of Object.entries(limits)) {
      expect(guide, name).toContain(String(value));
    }
  });

  it("queryViewerWatch: id-list and cursor limits answer WATCH_REQUEST_INVALID, not REQUEST_INVALID", () => {
    for (const field of ["uids", "externalUserIds", "cursor"])
      expect(query[field]["x-error-code"]).toBe("WATCH_REQUEST_INVALID");
  });
});
