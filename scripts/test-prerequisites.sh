#!/usr/bin/env bash
# What the tests need besides Node.js packages: Debian's Chromium (the browser tests drive it through
# playwright-core) with a CJK font for the console's and the watch page's Simplified Chinese pages, ffmpeg (it
# makes the HLS streams the watch page's tests play), python3-jsonschema (the published
# spec read by Python's reference JSON Schema engine) and prometheus (the real Prometheus server scrapes the
# reference server's metrics; its promtool checks the alerting rules of docs/operations.md).
# Installs the missing ones with apt-get (as root, or through sudo); where neither works it says what to install
# and fails, so a test run never starts without them.
set -euo pipefail

missing=()
[[ -n "${CHROMIUM_PATH:-}" || -x /usr/bin/chromium ]] || missing+=(chromium)
[[ -n "${FFMPEG_PATH:-}" || -x /usr/bin/ffmpeg ]] || missing+=(ffmpeg)
# A CJK font, so the console's Simplified Chinese screenshots (docs/console/) show characters, not boxes.
[[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]] || missing+=(fonts-wqy-microhei)
/usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1 || missing+=(python3-jsonschema)
[[ -n "${PROMETHEUS_PATH:-}" || -x /usr/bin/prometheus ]] || missing+=(prometheus)
((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) == 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "The tests need Debian packages that are not installed: ${missing[*]}" >&2
  echo "Install them (sudo apt-get install ${missing[*]}) and run the tests again." >&2
  exit 1
fi
echo "Installing the Debian packages the tests need: ${missing[*]}" >&2
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
