/** Reads a small request body (admin API, watch page API) as UTF-8 text, refusing more than `maxBytes`. */
import { readWebBody } from "@org/webinar-validator";
import { ServiceError } from "../errors";

const decoder = new TextDecoder();

export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const body = await readWebBody(request, maxBytes);
  if (body === undefined) throw new ServiceError("REQUEST_INVALID", `the request body exceeds ${maxBytes} bytes`);
  return decoder.decode(body);
}

/** Bodies of the admin API and the watch page's API are small JSON documents. */
export const SMALL_BODY_BYTES = 64 * 1024;
