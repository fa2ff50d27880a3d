/** The watch page's playback API, `POST /w/api/playback/{start|heartbeat|stop}`, with a cookie when given. */
export async function playbackCall(
  baseUrl: string,
  action: string,
  body: Record<string, unknown>,
  cookie?: string,
): Promise<{ status: number; body: any; setCookie: string | null }> {
  const response = await fetch(`${baseUrl}/w/api/playback/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie === undefined ? {} : { cookie }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), setCookie: response.headers.get("set-cookie") };
}
