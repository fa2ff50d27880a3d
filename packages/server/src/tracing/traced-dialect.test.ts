/** What a statement's span calls it: its verb and the table it writes, or else the first it reads. */
import { describe, expect, it } from "vitest";
import { statementSummary } from "./traced-dialect";

describe("statementSummary", () => {
  it.each([
    ["insert into viewers (merchant_id) values ($1)", "INSERT viewers"],
    ['select "uid" from "viewers" where "merchant_id" = $1', "SELECT viewers"],
    ["update api_keys set last_used_at = $1 where api_key = $2", "UPDATE api_keys"],
    ["delete from open_api_nonces where expires_at < $1", "DELETE open_api_nonces"],
    [
      "with written as (\n  insert into viewers (uid) values ($1)\n  returning uid\n) select uid from written",
      "INSERT viewers",
    ],
    [
      "with r as (select * from jsonb_to_recordset($1::jsonb) as r(a text)) select a from r",
      "SELECT jsonb_to_recordset",
    ],
    ["begin", "BEGIN"],
    ["commit", "COMMIT"],
    ['select 1 from "public"."merchants"', "SELECT public.merchants"],
  ])("%s -> %s", (sql, summary) => {
    expect(statementSummary(sql)).toBe(summary);
  });

  it("never carries a value: only words of the statement's own text", () => {
    expect(statementSummary("select uid from viewers where phone = $1")).toBe("SELECT viewers");
  });
});
