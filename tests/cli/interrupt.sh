#!/usr/bin/env bash
# SIGINT or SIGTERM during a search: it stops at its next batch, prints the
# statistics so far, exits 3, and writes no report, trace, SARIF, ITF or
# temporary file. With --format json, standard output is still one JSON
# document, which says the run was interrupted.
#
# Usage: interrupt.sh OUTBOX_CHECK SLOW_SCENARIO (searched without symmetry,
# so that it runs for several seconds even on a fast machine)
set -u
checker=$1 scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for signal in INT TERM; do
  rm -rf "$work/reports" "$work/traces" "$work/itf"
  "$checker" check "$scenario" --no-symmetry --no-time --report-dir "$work/reports" \
    --save-traces "$work/traces" --graph "$work/graph.dot" \
    --sarif "$work/run.sarif" --itf "$work/itf" \
    >"$work/out.txt" 2>&1 &
  pid=$!
  # The folders are made once the scenario is loaded; the search follows.
  for _ in $(seq 100); do
    [ -d "$work/traces" ] && break
    sleep 0.1
  done
  sleep 1
  kill -"$signal" "$pid"
  wait "$pid"
  code=$?
  fail() { echo "SIG$signal: $*"; status=1; }
  [ "$code" -eq 3 ] || fail "exit code $code, expected 3"
  grep -Eq "the search was interrupted, so the invariants" "$work/out.txt" ||
    fail "no stop reason"
  grep -Eq "interrupted by a signal: [0-9,]+ distinct states?, [0-9,]+ transitions?" \
    "$work/out.txt" || fail "no statistics"
  grep -q "interrupted by SIG$signal: not proved" "$work/out.txt" ||
    fail "no closing line"
  # The folders were made (and probed) before the search; nothing since.
  [ -d "$work/reports" ] && [ -d "$work/traces" ] && [ -d "$work/itf" ] ||
    fail "folders missing"
  left=$(find "$work" -mindepth 1 ! -name out.txt ! -path "$work/reports" \
    ! -path "$work/traces" ! -path "$work/itf")
  [ -z "$left" ] || fail "files left: $left"
  [ "$status" -eq 0 ] || cat "$work/out.txt"
done

# --format json: the document of what was done, on standard output alone.
rm -rf "$work/itf"
"$checker" check "$scenario" --no-symmetry --format json --itf "$work/itf" \
  >"$work/out.json" 2>"$work/err.txt" &
pid=$!
for _ in $(seq 100); do
  [ -d "$work/itf" ] && break
  sleep 0.1
done
sleep 1
kill -INT "$pid"
wait "$pid"
code=$?
fail() { echo "--format json: $*"; status=1; }
[ "$code" -eq 3 ] || fail "exit code $code, expected 3"
python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["interrupted"] is True and doc["exit_code"] == 3, doc
(report,) = doc["scenarios"]
assert report["stats"]["stop"] == "interrupted", report["stats"]
' "$work/out.json" || fail "the document does not say the run was interrupted"
grep -q "interrupted by SIGINT: not proved" "$work/err.txt" ||
  fail "no closing line on standard error"
[ -z "$(ls -A "$work/itf")" ] || fail "ITF files written"
exit "$status"
