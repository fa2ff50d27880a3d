/**
 * Requests exactly as written, through node:http: the request target is sent verbatim (fetch would normalize
 * dot segments and encodings) and a header given as an array is sent once per value (a duplicated header).
 */
import { request } from "node:http";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export function rawRequest(
  baseUrl: string,
  options: { method?: string; path: string; headers?: Record<string, string | string[]>; body?: string },
): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? "POST",
        path: options.path,
        headers: options.headers ?? {},
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          let body: unknown = text;
          try {
            body = text === "" ? undefined : JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
