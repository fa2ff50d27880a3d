#!/usr/bin/env python3
"""Create or update the viewer for one of your users (POST /api/v1/open/viewers/upsert) and print the response.

Shows the request signature of spec section 5.2 with the standard library only: serialize the body once, hash those
exact bytes, sign the six-line canonical string with the secret as raw text, and send the same bytes.
Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET. For tests: WEBINAR_BODY (exact raw body),
WEBINAR_TIMESTAMP, WEBINAR_NONCE, WEBINAR_DRY_RUN=1 (print the signed headers and canonical string, send nothing).
"""
import hashlib, hmac, json, os, secrets, sys, time, urllib.error, urllib.parse, urllib.request

OPERATION = "/api/v1/open/viewers/upsert"
base_url = os.environ["WEBINAR_BASE_URL"].rstrip("/")
api_key, secret = os.environ["WEBINAR_API_KEY"], os.environ["WEBINAR_API_SECRET"]
path = urllib.parse.urlsplit(base_url).path + OPERATION  # sign the real path (with any base-URL prefix), no host

example = {"externalUserId": "crm-10086", "phone": "13800138000", "displayName": "张三"}
raw_body = (os.environ.get("WEBINAR_BODY") or json.dumps(example, ensure_ascii=False, separators=(",", ":"))).encode("utf-8")
timestamp = os.environ.get("WEBINAR_TIMESTAMP") or str(int(time.time()))  # Unix seconds, not milliseconds
nonce = os.environ.get("WEBINAR_NONCE") or secrets.token_hex(16)  # new for every request, retries included

body_hash = hashlib.sha256(raw_body).hexdigest()
canonical = "\n".join([api_key, "POST", path, timestamp, nonce, body_hash])
signature = hmac.new(secret.encode("utf-8"), canonical.encode("utf-8"), hashlib.sha256).hexdigest()
headers = {"Content-Type": "application/json", "X-API-Key": api_key, "X-Timestamp": timestamp, "X-Nonce": nonce, "X-Signature": signature}

if os.environ.get("WEBINAR_DRY_RUN") == "1":
    print("".join("%s: %s\n" % (name, value) for name, value in headers.items() if name != "Content-Type"))
    print("canonical:\n" + canonical)
    sys.exit(0)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):  # a redirected request would not match its signature: fail instead
        return None


request = urllib.request.Request(base_url + OPERATION, data=raw_body, headers=headers, method="POST")
try:
    with urllib.request.build_opener(NoRedirect).open(request, timeout=30) as response:
        print(response.status, response.read().decode("utf-8"))
except urllib.error.HTTPError as error:  # branch on error.code in the JSON body; keep requestId
    print(error.code, error.read().decode("utf-8", "replace"))
    sys.exit(1)
