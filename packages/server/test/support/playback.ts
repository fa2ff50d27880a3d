import { checkDocumentAnswer } from "./document-answers";

/** The watch page's playback API, `POST /w/api/playback/{start|heartbeat|stop}`, with a cookie when given. */
export async function playbackCall(
  baseUrl: string,
  action: string,
  body: Record<string, unknown>,
  cookie?: string,
): Promise<{ status: number; body: any; setCookie: string | null }> {
  const path = `/w/api/playback/${action}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie === undefined ? {} : { cookie }) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // Every answer is checked against watch-openapi.yaml (support/document-answers.ts).
  checkDocumentAnswer("watch", { method: "POST", path }, { status: response.status, headers: response.headers, text });
  return { status: response.status, body: JSON.parse(text), setCookie: response.headers.get("set-cookie") };
}
