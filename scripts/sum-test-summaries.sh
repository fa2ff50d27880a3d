#!/usr/bin/env bash
# Adds up the closing `N passed, N failed` lines of several test-run logs and prints the total in the same form.
# A log without such a line (the run crashed before its summary) counts as one failure and makes this exit 1.
set -euo pipefail
passed=0 failed=0 status=0
for log in "$@"; do
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
  if [[ -z "$line" ]]; then
    echo "no 'N passed, N failed' line in $log" >&2
    failed=$((failed + 1)) status=1
    continue
  fi
  read -r p _ f _ <<<"${line//,/}"
  passed=$((passed + p)) failed=$((failed + f))
done
echo "$passed passed, $failed failed"
exit "$status"
