// Issue a one-time login ticket (POST /api/v1/open/viewers/login-tickets) with @org/webinar-client.
// Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET.
import { createWebinarClient } from "@org/webinar-client";

const client = createWebinarClient({
  baseUrl: process.env.WEBINAR_BASE_URL!,
  apiKey: process.env.WEBINAR_API_KEY!,
  secret: process.env.WEBINAR_API_SECRET!,
});

// Issuing invalidates the viewer's previous unused ticket: only the loginUrl of the latest answer works.
const { loginUrl, expiresAt } = await client.issueLoginTicket({ uid: 10001, ticketCode: "WBN8K2QX" });
// Hand loginUrl to the user exactly as returned (a redirect or a link) before expiresAt; never write it to logs.
console.log(loginUrl, expiresAt);
