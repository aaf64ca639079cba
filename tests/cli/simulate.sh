#!/usr/bin/env bash
# simulate.sh OUTBOX_CHECK SCENARIO: check --simulate gives the same report
# on 1 and 3 threads (plain and swarm), its saved counterexample replays
# with the exhaustive checker to the same violation, and a swarm walk's
# drawn budgets are printed and written into the saved scenario.
set -u
bin=$1 scenario=$2
fail() { printf '%s\n' "$*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for swarm in "" --swarm; do
  "$bin" check --simulate $swarm --seed 7 --walks 300 --no-time --format json \
    --threads 1 "$scenario" >"$tmp/one.json" 2>/dev/null
  "$bin" check --simulate $swarm --seed 7 --walks 300 --no-time --format json \
    --threads 3 "$scenario" >"$tmp/three.json" 2>/dev/null
  cmp -s "$tmp/one.json" "$tmp/three.json" ||
    fail "check --simulate $swarm: 1 and 3 threads differ:
$(diff "$tmp/one.json" "$tmp/three.json" | head -20)"
  grep -q '"search": "simulation"' "$tmp/one.json" ||
    fail "the JSON report does not say the search was a simulation"
done

"$bin" check --simulate --seed 7 --no-time --save-traces "$tmp/plain" \
  "$scenario" >"$tmp/plain.txt" 2>&1 || fail "check --simulate failed:
$(cat "$tmp/plain.txt")"
grep -Eq 'violated; trace of walk [0-9]+, shortened' "$tmp/plain.txt" ||
  fail "the trace is not said to come from a walk: $(cat "$tmp/plain.txt")"
"$bin" check "$tmp/plain" >"$tmp/replay.txt" 2>&1 ||
  fail "the saved trace does not replay as expected: $(cat "$tmp/replay.txt")"
grep -q 'all scenarios as expected' "$tmp/replay.txt" || fail "replay"

"$bin" check --simulate --swarm --seed 7 --no-time --save-traces "$tmp/swarm" \
  "$scenario" >"$tmp/swarm.txt" 2>&1 || fail "check --simulate --swarm failed:
$(cat "$tmp/swarm.txt")"
drawn=$(sed -n 's/^  swarm:     walk [0-9]* drew \(.*\); weights .*/\1/p' \
  "$tmp/swarm.txt")
[ -n "$drawn" ] || fail "no drawn budgets printed: $(cat "$tmp/swarm.txt")"
# Each drawn budget is in the saved scenario's [faults] table.
saved=$(ls "$tmp/swarm"/*.toml)
IFS=',' read -ra budgets <<<"$drawn"
for b in "${budgets[@]}"; do
  line=$(sed 's/^ *faults\.//' <<<"$b")
  grep -qx "$line" "$saved" || fail "the saved scenario lacks '$line':
$(cat "$saved")"
done
"$bin" check "$tmp/swarm" >"$tmp/replay.txt" 2>&1 ||
  fail "the swarm trace does not replay as expected: $(cat "$tmp/replay.txt")"
exit 0
