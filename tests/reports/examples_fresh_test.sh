#!/usr/bin/env bash
# The example reports committed under reports/examples/ must be what the
# current build produces; regenerate them with reports/examples/regenerate.sh.
# Usage: examples_fresh_test.sh SOURCE_DIR OUTBOX_CHECK
set -u
cd "$1" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$2" check scenarios/seed/lease-expiry-after-send.toml \
  tests/cli/data/no-lease-unbounded.toml --no-time \
  --report-dir "$tmp" >/dev/null || exit 1
stale=0
for stem in lease-expiry-after-send no-lease.unbounded; do
  for ext in md html json; do
    if ! cmp -s "$tmp/$stem.$ext" "reports/examples/$stem.$ext"; then
      echo "reports/examples/$stem.$ext is stale;" \
           "run reports/examples/regenerate.sh"
      stale=1
    fi
  done
done
exit $stale
