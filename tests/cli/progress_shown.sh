#!/usr/bin/env bash
# progress_shown.sh OUTBOX_CHECK SCENARIO: a search longer than a second
# shows its progress (stored states against --max-states, memory, depth)
# with --progress always, and none by default in a pipe, with --progress
# never, or with --quiet.
set -u
bin=$1 scenario=$2
fail() { printf '%s\n' "$*"; exit 1; }
# Long enough (a few seconds here, so over a second on a machine several
# times faster), short enough for a test.
run() {
  "$bin" check "$scenario" --threads 1 --no-symmetry --traces never \
    --max-states 4000000 "$@" 2>&1 >/dev/null | tr '\r' '\n'
}
shown=$(run --progress always)
grep -Eq '^(.\[K)?bench-4-xlarge: [0-9,]+ states stored \(limit 4,000,000\) in [0-9.]+ s' \
  <<<"$shown" || fail "no progress with --progress always: $shown"
for flags in "" "--progress never" "--progress always --quiet"; do
  # shellcheck disable=SC2086
  out=$(run $flags)
  if grep -q 'states stored' <<<"$out"; then
    fail "progress with '$flags' in a pipe: $out"
  fi
done
echo "progress only where asked"
