/**
 * The requests that make a run's data before anything is timed: admin API calls, signed Open API calls, a
 * bounded number of them in flight. Every answer must have the expected status, or the run stops saying which.
 */
import { type Credentials, signedHeaders } from "./signed-request";

/** Setup requests in flight at once: quick on every database, light on the server. */
export const SETUP_CONCURRENCY = 8;

/** Runs `task(0..count-1)` with at most `concurrency` in flight; the results in index order. */
export async function inParallel<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** The JSON of an answer that has `expectedStatus`; otherwise an error naming the request and the answer. */
export async function expectJson(answer: Response, expectedStatus: number, what: string): Promise<unknown> {
  const text = await answer.text();
  if (answer.status !== expectedStatus)
    throw new Error(`${what}: expected ${expectedStatus}, got ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

export function adminClient(baseUrl: string, adminToken: string) {
  return async <T>(path: string, body: unknown, expectedStatus: number): Promise<T> => {
    const answer = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await expectJson(answer, expectedStatus, `admin POST ${path}`)) as T;
  };
}

/** A signed Open API call that must answer 200; its `data`. */
export async function signedCall<Data>(
  baseUrl: string,
  credentials: Credentials,
  path: string,
  request: object,
): Promise<Data> {
  const body = JSON.stringify(request);
  const answer = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: signedHeaders(credentials, path, body),
    body,
  });
  return ((await expectJson(answer, 200, `POST ${path} ${body}`)) as { data: Data }).data;
}

/** The uid of the merchant's viewer of `externalUserId`, made when new (operation upsertViewer). */
export async function upsertViewer(baseUrl: string, credentials: Credentials, externalUserId: string): Promise<number> {
  const data = await signedCall<{ viewer: { uid: number } }>(baseUrl, credentials, "/api/v1/open/viewers/upsert", {
    externalUserId,
  });
  return data.viewer.uid;
}
