/**
 * Reads a small request body (admin API, watch page API) as UTF-8 text, refusing more than `maxBytes`. On
 * @hono/node-server the body is read from the Node request Hono was given (`c.env.incoming`), as the Open API's
 * middleware reads it: building a Web `Request` for it (with its body stream and abort signal) would cost every
 * heartbeat more than its crediting does.
 */
import type { Context } from "hono";
import { readNodeBody, readWebBody } from "@org/webinar-validator";
import { ServiceError } from "../errors";
import type { AppEnv } from "./app-env";

const decoder = new TextDecoder();

export async function readBodyText(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  const incoming = c.env?.incoming;
  const body = incoming === undefined ? await readWebBody(c.req.raw, maxBytes) : await readNodeBody(incoming, maxBytes);
  if (body === undefined) throw new ServiceError("REQUEST_INVALID", `the request body exceeds ${maxBytes} bytes`);
  return decoder.decode(body);
}

/** Bodies of the admin API and the watch page's API are small JSON documents. */
export const SMALL_BODY_BYTES = 64 * 1024;
