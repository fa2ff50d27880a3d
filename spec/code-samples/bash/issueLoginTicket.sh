#!/usr/bin/env bash
# Issue a one-time login link to a webinar for a viewer (POST /api/v1/open/viewers/login-tickets) and print it.
# Shows the request signature of Signing requests with curl + openssl: serialize the body once, hash those exact bytes,
# sign the six-line canonical string with the secret as raw text, and send the same bytes.
# Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET. For tests: WEBINAR_BODY (exact raw body),
# WEBINAR_TIMESTAMP, WEBINAR_NONCE, WEBINAR_DRY_RUN=1 (print the signed headers and canonical string, send nothing).
set -euo pipefail
: "${WEBINAR_BASE_URL:?}" "${WEBINAR_API_KEY:?}" "${WEBINAR_API_SECRET:?}"
operation="/api/v1/open/viewers/login-tickets"
base_url="${WEBINAR_BASE_URL%/}"
path="$(printf '%s' "$base_url" | sed -E 's#^[A-Za-z][A-Za-z0-9+.-]*://[^/]*##')$operation" # sign the real path, no host

# loginUrl in the response is a temporary credential: hand it to that user only, never log it publicly.
example='{"uid":10001,"ticketCode":"WBN8K2QX"}'
body="${WEBINAR_BODY:-$example}"                  # the exact bytes that are hashed and sent; never re-format
timestamp="${WEBINAR_TIMESTAMP:-$(date +%s)}"     # Unix seconds, not milliseconds
nonce="${WEBINAR_NONCE:-$(openssl rand -hex 16)}" # new for every request, retries included

body_hash=$(printf '%s' "$body" | openssl dgst -sha256 | awk '{print $NF}')
canonical=$(printf '%s\n%s\n%s\n%s\n%s\n%s' "$WEBINAR_API_KEY" POST "$path" "$timestamp" "$nonce" "$body_hash")
# The secret is used as raw text. openssl takes it as an argument; on a shared host prefer the Python sample.
signature=$(printf '%s' "$canonical" | openssl dgst -sha256 -hmac "$WEBINAR_API_SECRET" | awk '{print $NF}')

if [ "${WEBINAR_DRY_RUN:-}" = 1 ]; then
  printf 'X-API-Key: %s\nX-Timestamp: %s\nX-Nonce: %s\nX-Signature: %s\n\ncanonical:\n%s\n' \
    "$WEBINAR_API_KEY" "$timestamp" "$nonce" "$signature" "$canonical"
  exit 0
fi
printf '%s' "$body" | curl --silent --show-error --fail-with-body --max-time 30 \
  -H 'Content-Type: application/json' -H "X-API-Key: $WEBINAR_API_KEY" -H "X-Timestamp: $timestamp" \
  -H "X-Nonce: $nonce" -H "X-Signature: $signature" --data-binary @- "$base_url$operation"
echo
