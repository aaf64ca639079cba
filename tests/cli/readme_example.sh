#!/bin/sh
# Checks that the README's worked example shows what the checker prints:
# the fenced block that starts with the scenario's header line must equal
# `check scenarios/seed/lease-expiry-after-send.toml --no-time`.
#
# Usage: readme_example.sh OUTBOX_CHECK (from the project's root)
set -eu
checker=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
header='lease-expiry-after-send (scenarios/seed/lease-expiry-after-send.toml)'
awk -v header="$header" '
  $0 == header && previous == "```text" { inside = 1 }
  inside && $0 == "```" { exit }
  inside { print }
  { previous = $0 }
' README.md >"$work/readme.txt"
test -s "$work/readme.txt"
"$checker" check scenarios/seed/lease-expiry-after-send.toml --no-time \
  >"$work/actual.txt"
diff "$work/readme.txt" "$work/actual.txt"
echo "the README's example is current"
