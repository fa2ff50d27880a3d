/**
 * The answer check of the admin, console and watch documents (support/document-answers.ts) reports what breaks a
 * document, so the tests that call those APIs through the shared callers cannot pass on an undocumented answer.
 */
import { describe, expect, it } from "vitest";
import { documentAnswerProblems } from "./support/document-answers";

const json = (requestId: string) => new Headers({ "content-type": "application/json", "x-request-id": requestId });
const answer = (status: number, body: object) => ({
  status,
  headers: json("req_1"),
  text: JSON.stringify({ requestId: "req_1", ...body }),
});
const revoke = { method: "POST", path: "/admin/v1/api-keys/key_1/revoke" };

describe("answers checked against their documents", () => {
  it.each([
    ["a documented answer passes", revoke, answer(200, { apiKey: "key_1", status: "REVOKED" }), 0],
    ["a body its schema refuses is reported", revoke, answer(200, { apiKey: 5, status: "REVOKED" }), 1],
    ["an undocumented status is reported", revoke, answer(418, { apiKey: "key_1", status: "REVOKED" }), 1],
    ["an error envelope of a documented status passes", revoke, answer(404, notFound()), 0],
    ["a console answer is checked too", { method: "GET", path: "/console/api/api-keys" }, answer(200, {}), 1],
    ["a path that is no operation is not checked", { method: "GET", path: "/console/" }, answer(200, {}), 0],
  ])("%s", (_label, request, given, count) => {
    const document = request.path.startsWith("/admin/") ? "admin" : "console";
    expect(documentAnswerProblems(document, request, given)).toHaveLength(count);
  });

  it("a requestId that is not the X-Request-Id is reported", () => {
    const given = { ...answer(200, { apiKey: "key_1", status: "REVOKED" }), headers: json("req_other") };
    expect(documentAnswerProblems("admin", revoke, given)).toEqual([
      expect.stringContaining("requestId req_1 and X-Request-Id differ"),
    ]);
  });
});

function notFound() {
  return { error: { code: "API_KEY_NOT_FOUND", message: "no such API key" } };
}
