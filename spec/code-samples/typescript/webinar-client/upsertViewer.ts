// Create or update the viewer of one of your users (POST /api/v1/open/viewers/upsert) with @org/webinar-client,
// the typed client: errors to branch on, every request signed, and retries only of what is safe to retry.
// Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET.
import { createWebinarClient, isWebinarApiError } from "@org/webinar-client";

const client = createWebinarClient({
  baseUrl: process.env.WEBINAR_BASE_URL!,
  apiKey: process.env.WEBINAR_API_KEY!,
  secret: process.env.WEBINAR_API_SECRET!,
});

try {
  const { viewer, created } = await client.upsertViewer({
    externalUserId: "crm-10086",
    phone: "13800138000",
    displayName: "张三",
  });
  console.log(created ? "created" : "existing", viewer); // keep viewer.uid for the ticket call
} catch (error) {
  // Branch on error.code, never on the status: 409 means four different things here.
  if (!isWebinarApiError(error, "upsertViewer") || error.code !== "VIEWER_IDENTITY_CONFLICT") throw error;
  console.error(`the phone belongs to another viewer; nothing changed (requestId ${error.requestId})`);
  process.exitCode = 1;
}
