#!/usr/bin/env bash
# Writes spec/test-vectors/signing.json: the language-neutral signing vectors of Signing requests.
#
# Every hash and HMAC in the file is computed here by the openssl CLI, so the vectors are independent of
# @org/webinar-signing (which is tested against them). python3 only assembles the JSON from the files this
# script writes; it never hashes. Each value is written to its own file with printf '%s' and hashed from
# that file, so no shell command substitution can trim a trailing line feed from a body or canonical string.
#
# Usage: bash spec/test-vectors/generate-signing.sh [OUTPUT]   (default: rewrites signing.json beside this script)
# The output is deterministic: spec/test/signing-vectors.test.ts regenerates it to a temporary file and compares.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out="${1:-$here/signing.json}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The commands recorded in the file's `generatedBy` field are exactly these three.
sha256_hex() { openssl dgst -sha256 <"$1" | awk '{print $NF}'; }                                # file
hmac_hex() { openssl dgst -sha256 -hmac "$1" <"$2" | awk '{print $NF}'; }                       # raw-text key, file
hmac_hexkey() { openssl dgst -sha256 -mac HMAC -macopt "hexkey:$1" <"$2" | awk '{print $NF}'; }      # hex key bytes, file
hmac_hexkey_base64() { openssl dgst -sha256 -mac HMAC -macopt "hexkey:$1" -binary <"$2" | openssl base64 -A; }
to_hex() { od -An -v -tx1 | tr -d ' \n'; }                                                      # stdin bytes -> hex

count=0
dir=""
put() { printf '%s' "$2" >"$dir/$1"; }
canonical_of() { # apiKey method path timestamp nonce bodyHash -> stdout, six lines, no trailing line feed
  printf '%s\n%s\n%s\n%s\n%s\n%s' "$1" "$2" "$3" "$4" "$5" "$6"
}

# positive NAME API_KEY SECRET PATH TIMESTAMP NONCE BODY
positive() {
  count=$((count + 1))
  dir="$work/$(printf '%03d' "$count")-positive"
  mkdir "$dir"
  put name "$1"; put apiKey "$2"; put secret "$3"; put method POST; put path "$4"
  put timestamp "$5"; put nonce "$6"; put body "$7"
  sha256_hex "$dir/body" | tr -d '\n' >"$dir/bodyHash"
  canonical_of "$2" POST "$4" "$5" "$6" "$(cat "$dir/bodyHash")" >"$dir/canonical"
  hmac_hex "$3" "$dir/canonical" | tr -d '\n' >"$dir/signature"
}

# The correct request every negative vector starts from; `negative` derives the mistaken signature from it.
base_api_key="wk_live_7Qm2x9Lp4Rt8Vb1N"
base_secret="Vq7#tR2m!Lp9@xZ4&nB6^wK1"
base_path="/api/v1/open/viewers/upsert"
base_timestamp="1767225600"
base_nonce="3f9c2a7d51e84b06a1c9e2f47d8b3a65"
base_body='{"externalUserId":"crm-10086","displayName":"张三"}'

# negative NAME MISTAKE RULE [field=value ...]
#   Correct inputs come from base_* unless overridden with correct.FIELD=VALUE. What the mistaken client did is
#   given as wrong.FIELD=VALUE (recorded for humans) plus, where it changes the HMAC input, signed.FIELD=VALUE:
#   signed.canonical (the exact string signed), signed.keyHex (key bytes used) and signed.encoding (hex|HEX|base64).
negative() {
  count=$((count + 1))
  dir="$work/$(printf '%03d' "$count")-negative"
  mkdir "$dir"
  put name "$1"; put mistake "$2"; put rule "$3"
  shift 3
  local api_key=$base_api_key secret=$base_secret path=$base_path timestamp=$base_timestamp nonce=$base_nonce
  local body=$base_body signed_canonical="" signed_key_hex="" encoding=hex assignment key value
  # Correct-input overrides first, so `signed.*` defaults below see them.
  for assignment in "$@"; do
    key=${assignment%%=*}; value=${assignment#*=}
    case $key in
      correct.path) path=$value ;;
      correct.body) body=$value ;;
      correct.secret) secret=$value ;;
    esac
  done
  put apiKey "$api_key"; put secret "$secret"; put method POST; put path "$path"
  put timestamp "$timestamp"; put nonce "$nonce"; put body "$body"
  sha256_hex "$dir/body" | tr -d '\n' >"$dir/bodyHash"
  canonical_of "$api_key" POST "$path" "$timestamp" "$nonce" "$(cat "$dir/bodyHash")" >"$dir/canonical"
  hmac_hex "$secret" "$dir/canonical" | tr -d '\n' >"$dir/expectedSignature"
  for assignment in "$@"; do
    key=${assignment%%=*}; value=${assignment#*=}
    case $key in
      correct.*) ;;
      wrong.*) put "$key" "$value" ;;
      signed.canonical) signed_canonical=$value; printf '%s' "$value" >"$dir/signedCanonical" ;;
      signed.keyHex) signed_key_hex=$value ;;
      signed.encoding) encoding=$value ;;
      *) echo "negative '$(cat "$dir/name")': unknown assignment $key" >&2; exit 1 ;;
    esac
  done
  [ -e "$dir/signedCanonical" ] || cp "$dir/canonical" "$dir/signedCanonical"
  [ -n "$signed_key_hex" ] || signed_key_hex=$(printf '%s' "$secret" | to_hex)
  printf '%s' "$signed_key_hex" >"$dir/signingKeyHex"
  printf '%s' "$encoding" >"$dir/signatureEncoding"
  case $encoding in
    hex) hmac_hexkey "$signed_key_hex" "$dir/signedCanonical" | tr -d '\n' >"$dir/signature" ;;
    HEX) hmac_hexkey "$signed_key_hex" "$dir/signedCanonical" | tr -d '\n' | tr a-f A-F >"$dir/signature" ;;
    base64) hmac_hexkey_base64 "$signed_key_hex" "$dir/signedCanonical" >"$dir/signature" ;;
  esac
  if [ "$(cat "$dir/signature")" = "$(cat "$dir/expectedSignature")" ]; then
    echo "negative '$(cat "$dir/name")' yields the correct signature; it is not a mistake" >&2
    exit 1
  fi
}

# Helper for negatives: the canonical string of the base request with one field replaced.
base_canonical_with() { # field value
  local api_key=$base_api_key path=$base_path timestamp=$base_timestamp nonce=$base_nonce hash
  hash=$(printf '%s' "$base_body" | openssl dgst -sha256 | awk '{print $NF}')
  case $1 in
    path) path=$2 ;;
    timestamp) timestamp=$2 ;;
    bodyHash) hash=$2 ;;
  esac
  canonical_of "$api_key" POST "$path" "$timestamp" "$base_nonce" "$hash"
}

# ---------------------------------------------------------------------------------------------------------
# Positive vectors: each of the four operation paths; ASCII, Chinese, emoji, escaped and `{}` bodies; secrets
# that look like hex or Base64 but are used as raw UTF-8 text (Signing requests, step 4).

positive "upsertViewer: ASCII body, plain-text secret" \
  "wk_live_7Qm2x9Lp4Rt8Vb1N" 'Vq7#tR2m!Lp9@xZ4&nB6^wK1' "/api/v1/open/viewers/upsert" \
  "1767225600" "3f9c2a7d51e84b06a1c9e2f47d8b3a65" \
  '{"externalUserId":"crm-10086","phone":"13800138000","displayName":"Alice Chen"}'

positive "upsertViewer: Chinese displayName sent as raw UTF-8" \
  "wk_live_7Qm2x9Lp4Rt8Vb1N" 'Vq7#tR2m!Lp9@xZ4&nB6^wK1' "/api/v1/open/viewers/upsert" \
  "1767225600" "3f9c2a7d51e84b06a1c9e2f47d8b3a65" \
  '{"externalUserId":"crm-10086","displayName":"张三"}'

positive "upsertViewer: same name sent as \\u escapes hashes differently (bytes, not values, are signed)" \
  "wk_live_7Qm2x9Lp4Rt8Vb1N" 'Vq7#tR2m!Lp9@xZ4&nB6^wK1' "/api/v1/open/viewers/upsert" \
  "1767225600" "3f9c2a7d51e84b06a1c9e2f47d8b3a65" \
  '{"externalUserId":"crm-10086","displayName":"\u5f20\u4e09"}'

positive "upsertViewer: emoji displayName (4-byte UTF-8), secret that looks like hex" \
  "wk_live_D3vK8sQ1wE5rT7yU" "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" \
  "/api/v1/open/viewers/upsert" "1767229200" "a0b1c2d3e4f5061728394a5b6c7d8e9f" \
  '{"externalUserId":"wx_oUpF8uMuAJO_M2pxb1Q9zNjWeS6o","displayName":"Lucky 🎉🐼"}'

positive "upsertViewer: displayName null clears the name, minimum 16-character nonce with _ and -" \
  "wk_test_Z8x7C6v5B4n3M2l1" "correct horse battery staple" "/api/v1/open/viewers/upsert" \
  "1767232800" "Nonce_16-chars_A" \
  '{"externalUserId":"crm-10086","displayName":null}'

positive "issueLoginTicket: ASCII body, secret that looks like Base64" \
  "wk_live_7Qm2x9Lp4Rt8Vb1N" "c2VjcmV0LWtleS1mb3Itd2ViaW5hcg==" "/api/v1/open/viewers/login-tickets" \
  "1767225660" "5e1d0c9b8a7f6e5d4c3b2a1908f7e6d5" \
  '{"uid":10001,"ticketCode":"WBN8K2QX"}'

positive "issueLoginTicket: non-ASCII secret (UTF-8 bytes of the text are the key), maximum 128-character nonce" \
  "wk_live_H9g8F7d6S5a4P3o2" "商户密钥 with spaces & ünïcödé" "/api/v1/open/viewers/login-tickets" \
  "1767225661" "$(printf 'Ab0_-%.0s' $(seq 1 25))Zz9" \
  '{"uid":9999999,"ticketCode":"live-2026-launch"}'

positive "getWatchOverview: ASCII body, playbackMode ALL" \
  "wk_live_7Qm2x9Lp4Rt8Vb1N" 'Vq7#tR2m!Lp9@xZ4&nB6^wK1' "/api/v1/open/watch-data/overview" \
  "1767312000" "c4f1e8a2b97d3065e1f4a8c2d9b07e53" \
  '{"ticketCode":"WBN8K2QX","playbackMode":"ALL"}'

positive "getWatchOverview: pretty-printed body with a trailing line feed is signed byte for byte" \
  "wk_live_7Qm2x9Lp4Rt8Vb1N" 'Vq7#tR2m!Lp9@xZ4&nB6^wK1' "/api/v1/open/watch-data/overview" \
  "1767312001" "7b3e9f1a0c2d4e6f8a1b3c5d7e9f0a2b" \
  $'{\n  "ticketCode": "WBN8K2QX",\n  "playbackMode": "LIVE"\n}\n'

positive "getWatchOverview: empty object body {}" \
  "wk_live_7Qm2x9Lp4Rt8Vb1N" 'Vq7#tR2m!Lp9@xZ4&nB6^wK1' "/api/v1/open/watch-data/overview" \
  "1767312002" "0f1e2d3c4b5a69788796a5b4c3d2e1f0" \
  '{}'

positive "queryViewerWatch: first page, ASCII body" \
  "wk_live_7Qm2x9Lp4Rt8Vb1N" 'Vq7#tR2m!Lp9@xZ4&nB6^wK1' "/api/v1/open/watch-data/viewers/query" \
  "1767315600" "e8d7c6b5a4938271605f4e3d2c1b0a99" \
  '{"ticketCode":"WBN8K2QX","playbackMode":"LIVE","sort":"WATCH_SECONDS_DESC","pageSize":50}'

positive "queryViewerWatch: uids, Chinese and emoji externalUserIds, cursor" \
  "wk_live_D3vK8sQ1wE5rT7yU" "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" \
  "/api/v1/open/watch-data/viewers/query" "1767315660" "1a2b3c4d5e6f708192a3b4c5d6e7f809" \
  '{"ticketCode":"WBN8K2QX","playbackMode":"REPLAY","uids":[10001,10002],"externalUserIds":["会员-8848","🎧-listener"],"minWatchSeconds":60,"sort":"LAST_WATCHED_DESC","cursor":"eyJrIjoiMTAwMDIifQ","pageSize":100}'

# ---------------------------------------------------------------------------------------------------------
# Negative vectors: one named mistake each. The correct inputs are what the server receives; `signature` is
# what the mistaken client sent; verification of the correct inputs must reject it and accept expectedSignature.

python_body='{"externalUserId": "crm-10086", "displayName": "\u5f20\u4e09"}'
negative "re-serialized body: whitespace and \\u escapes" \
  "The body was signed as compact UTF-8 JSON, then the HTTP library serialized the object again (Python json.dumps defaults: ', ' and ': ' separators, ASCII escapes) and sent those bytes." \
  "Signing requests, step 1: serialize once, sign and send the same bytes" \
  "correct.body=$python_body" \
  "wrong.body=$base_body" \
  "signed.canonical=$(base_canonical_with path "$base_path")"

sorted_body='{"displayName":"张三","externalUserId":"crm-10086"}'
negative "re-serialized body: key order changed" \
  "The body was signed, parsed and re-serialized with sorted keys before sending; the values are equal but the bytes are not." \
  "Signing requests, step 1: serialize once, sign and send the same bytes" \
  "correct.body=$sorted_body" \
  "wrong.body=$base_body" \
  "signed.canonical=$(base_canonical_with path "$base_path")"

negative "millisecond timestamp signed" \
  "Date.now() (milliseconds) was signed instead of Unix seconds." \
  "Signing requests X-Timestamp: Unix time in seconds (not milliseconds)" \
  "wrong.timestamp=${base_timestamp}000" \
  "signed.canonical=$(base_canonical_with timestamp "${base_timestamp}000")"

negative "full URL signed instead of the path" \
  "The canonical string carried scheme and host." \
  "Signing requests, step 3: full path without host" \
  "wrong.path=https://api.example.com$base_path" \
  "signed.canonical=$(base_canonical_with path "https://api.example.com$base_path")"

negative "trailing slash in the signed path" \
  "The path was signed with a trailing slash." \
  "the operations: path exactly as given, no trailing slash" \
  "wrong.path=$base_path/" \
  "signed.canonical=$(base_canonical_with path "$base_path/")"

negative "base-URL path prefix left out of the signed path" \
  "The request went to https://gw.example.com/webinar/api/v1/open/viewers/upsert but the operation path alone was signed." \
  "Signing requests, step 3: full path without host" \
  "correct.path=/webinar$base_path" \
  "wrong.path=$base_path" \
  "signed.canonical=$(base_canonical_with path "$base_path")"

negative "uppercase hex signature" \
  "The HMAC was hex-encoded in uppercase." \
  "Signing requests X-Signature: 64 lowercase hex characters" \
  "wrong.signatureEncoding=uppercase hex" \
  "signed.encoding=HEX"

negative "Base64 signature" \
  "The HMAC was Base64-encoded instead of lowercase hex." \
  "Signing requests X-Signature: 64 lowercase hex characters" \
  "wrong.signatureEncoding=base64" \
  "signed.encoding=base64"

negative "trailing line feed in the canonical string" \
  "The six lines were each terminated by a line feed, leaving one after bodyHash." \
  "Signing requests, step 3: joined by a single line feed, no trailing line feed" \
  "wrong.canonical=$(base_canonical_with path "$base_path")"$'\n' \
  "signed.canonical=$(base_canonical_with path "$base_path")"$'\n'

base_canonical=$(base_canonical_with path "$base_path")
crlf_canonical=${base_canonical//$'\n'/$'\r\n'}
negative "CRLF line separators in the canonical string" \
  "The lines were joined with CR LF (a Windows line ending) instead of a single line feed." \
  "Signing requests, step 3: joined by a single line-feed character" \
  "wrong.canonical=$crlf_canonical" \
  "signed.canonical=$crlf_canonical"

negative "lowercase method in the canonical string" \
  "The HTTP method was written as 'post'." \
  "Signing requests, step 3: the literal POST" \
  "wrong.method=post" \
  "signed.canonical=$(base_canonical_with path "$base_path" | sed '2s/^POST$/post/')"

upper_hash=$(printf '%s' "$base_body" | openssl dgst -sha256 | awk '{print $NF}' | tr a-f A-F)
negative "uppercase hex bodyHash" \
  "The body hash was hex-encoded in uppercase." \
  "Signing requests, step 2: lowercase hex of SHA-256" \
  "wrong.bodyHash=$upper_hash" \
  "signed.canonical=$(base_canonical_with bodyHash "$upper_hash")"

negative "wrong secret: the API key used as the secret" \
  "The HMAC key was the API key instead of the secret paired with it." \
  "Signing requests, step 4: HMAC-SHA256 with the secret; Signing requests the secret is distinct from the API key" \
  "wrong.secret=$base_api_key" \
  "signed.keyHex=$(printf '%s' "$base_api_key" | to_hex)"

hex_secret="9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
negative "secret hex-decoded instead of used as raw text" \
  "A secret that looks like hex was decoded to 32 bytes before use." \
  "Signing requests, step 4: the UTF-8 bytes of the secret, used as raw text, not hex- or Base64-decoded" \
  "wrong.secret=hex-decode($hex_secret)" \
  "correct.secret=$hex_secret" \
  "signed.keyHex=$hex_secret"

b64_secret="c2VjcmV0LWtleS1mb3Itd2ViaW5hcg=="
negative "secret Base64-decoded instead of used as raw text" \
  "A secret that looks like Base64 was decoded before use." \
  "Signing requests, step 4: the UTF-8 bytes of the secret, used as raw text, not hex- or Base64-decoded" \
  "wrong.secret=base64-decode($b64_secret)" \
  "correct.secret=$b64_secret" \
  "signed.keyHex=$(printf '%s' "$b64_secret" | openssl base64 -d -A | to_hex)"

# ---------------------------------------------------------------------------------------------------------
generated_by="bash spec/test-vectors/generate-signing.sh, where every value is written to a file with printf '%s' and: \
bodyHash = openssl dgst -sha256 <body | awk '{print \$NF}'; \
signature, expectedSignature = openssl dgst -sha256 -hmac \"\$secret\" <canonical | awk '{print \$NF}'; \
mistaken signature = openssl dgst -sha256 -mac HMAC -macopt hexkey:\$signingKeyHex <signedCanonical | awk '{print \$NF}' \
(| tr a-f A-F for uppercase; -binary | openssl base64 -A for Base64). python3 only assembles the JSON."

GENERATED_BY=$generated_by python3 - "$work" "$out" <<'PY'
import json, os, sys

work, out = sys.argv[1], sys.argv[2]

def read(directory, name):
    with open(os.path.join(directory, name), "rb") as f:
        return f.read().decode("utf-8")

# Key order in the output; every field is a file the shell wrote.
positive_fields = ["name", "apiKey", "secret", "method", "path", "timestamp", "nonce", "body", "bodyHash", "canonical", "signature"]
negative_fields = ["name", "mistake", "rule", "apiKey", "secret", "method", "path", "timestamp", "nonce", "body", "bodyHash",
                   "canonical", "expectedSignature", "wrong", "signedCanonical", "signingKeyHex", "signatureEncoding", "signature"]

doc = {
    "description": "HMAC-SHA256 request signing vectors for the Webinar Open API (spec section 5.2). "
                   "positive: inputs and the expected bodyHash, canonical string (six lines joined by LF, no trailing LF) "
                   "and lowercase hex signature. negative: one named mistake each; apiKey..canonical are the correct inputs "
                   "the server receives, expectedSignature the correct signature, signature what the mistake yields "
                   "(HMAC of signedCanonical with the key bytes signingKeyHex, encoded as signatureEncoding), and wrong "
                   "the value the mistaken client used. A verifier must reject signature and accept expectedSignature.",
    "generatedBy": os.environ["GENERATED_BY"],
    "positive": [],
    "negative": [],
}
for entry in sorted(os.listdir(work)):
    directory = os.path.join(work, entry)
    kind = entry.split("-", 1)[1]
    if kind == "positive":
        doc["positive"].append({field: read(directory, field) for field in positive_fields})
        continue
    files = set(os.listdir(directory))
    vector = {}
    for field in negative_fields:
        if field == "wrong":
            vector["wrong"] = {name[len("wrong."):]: read(directory, name) for name in sorted(files) if name.startswith("wrong.")}
        else:
            vector[field] = read(directory, field)
    doc["negative"].append(vector)

with open(out, "w", encoding="utf-8", newline="\n") as f:
    json.dump(doc, f, ensure_ascii=False, indent=2)
    f.write("\n")
print("wrote %s: %d positive, %d negative" % (out, len(doc["positive"]), len(doc["negative"])))
PY
