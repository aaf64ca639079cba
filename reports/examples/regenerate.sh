#!/usr/bin/env bash
# Regenerates the committed example reports (Markdown, HTML, JSON), without
# timing so they are byte-stable: of the lease-expiry-after-send scenario,
# and of no-lease.unbounded, whose violation is a lasso (a fair cycle).
# Usage: reports/examples/regenerate.sh [path/to/outbox-check]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/outbox-check}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$binary" check scenarios/seed/lease-expiry-after-send.toml \
  tests/cli/data/no-lease-unbounded.toml --no-time \
  --report-dir "$tmp" >/dev/null
for stem in lease-expiry-after-send no-lease.unbounded; do
  for ext in md html json; do
    cp "$tmp/$stem.$ext" reports/examples/
  done
done
