#!/usr/bin/env bash
# Regenerates the committed example reports of the lease-expiry-after-send
# scenario (Markdown, HTML, JSON), without timing so they are byte-stable.
# Usage: reports/examples/regenerate.sh [path/to/outbox-check]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/outbox-check}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$binary" check scenarios/seed/lease-expiry-after-send.toml --no-time \
  --report-dir "$tmp" >/dev/null
for ext in md html json; do
  cp "$tmp/lease-expiry-after-send.$ext" reports/examples/
done
