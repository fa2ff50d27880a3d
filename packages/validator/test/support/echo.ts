import { operations } from "@org/webinar-types";
import type { VerifiedRequest } from "../../src/index";

/** What every test app answers: the envelope with what its handler received, so the tests see it. */
export const echo = (webinar: VerifiedRequest) => ({
  requestId: webinar.requestId,
  data: { merchantId: webinar.merchantId, operationId: webinar.operationId, body: webinar.body },
});

/** The four operation paths, for the test apps' routes. */
export const operationPaths = Object.values(operations).map((operation) => operation.path);
