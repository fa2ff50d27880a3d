#!/usr/bin/env bash
# Drift check: regenerate every generated file (`*.gen.*`) from the spec and fail when the result is
# not exactly what is committed: modified, deleted or new (untracked) generated files all count.
# Run it on a clean checkout (CI does); locally, uncommitted regenerations show up as drift too.
set -euo pipefail
cd "$(dirname "$0")/.."

# --force: a cache replay would restore old outputs instead of proving the generators still agree.
pnpm turbo run generate --force --output-logs=errors-only

# Git pathspec `*` also matches `/`, so '*.gen.*' covers every folder; -uall lists files inside
# untracked folders one by one instead of just naming the folder. The server's copies of the admin and console
# APIs' documents are generated too (packages/server/scripts/generate.ts), though their names must stay as they are.
generated=('*.gen.*' 'packages/server/admin-openapi.yaml' 'packages/server/console-openapi.yaml')
drift=$(git status --porcelain --untracked-files=all -- "${generated[@]}")
if [[ -n "$drift" ]]; then
  echo "Generated files differ from the commit (run \`pnpm generate\` and commit the result):" >&2
  echo "$drift" >&2
  git --no-pager diff --exit-code --stat -- "${generated[@]}" >&2 || true
  exit 1
fi
echo "No drift: every generated file matches the commit."
