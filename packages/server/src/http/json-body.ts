/**
 * The JSON bodies of the admin API and the watch page's API: `application/json` as the Open API accepts it
 * (@org/webinar-validator's `isJsonContentType`: `charset=utf-8` at most, since the text is read as UTF-8), and
 * valid JSON. Anything else is 400 REQUEST_INVALID with one issue naming the rule (`contentType`, `json`); what
 * the value must look like is the document's schema's job (http/body-check.ts).
 */
import { isJsonContentType } from "@org/webinar-validator";
import { invalidBody } from "./body-check";

/**
 * @example
 * parseJsonBody('{"playbackId":"pb_1"}', "application/json"); // { playbackId: "pb_1" }
 * parseJsonBody("{", "application/json"); // throws 400 REQUEST_INVALID, details.errors[0].rule "json"
 */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (!isJsonContentType(contentType ?? ""))
    throw invalidBody([{ pointer: "", rule: "contentType", message: "Content-Type must be application/json" }]);
  try {
    return JSON.parse(text);
  } catch {
    throw invalidBody([{ pointer: "", rule: "json", message: "the body is not valid JSON" }]);
  }
}
