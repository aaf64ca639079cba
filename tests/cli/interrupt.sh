#!/usr/bin/env bash
# SIGINT or SIGTERM during a search: it stops at its next batch, prints the
# statistics so far, exits 3, and writes no report, trace or temporary file.
#
# Usage: interrupt.sh OUTBOX_CHECK SLOW_SCENARIO
set -u
checker=$1 scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for signal in INT TERM; do
  rm -rf "$work/reports" "$work/traces"
  "$checker" check "$scenario" --no-time --report-dir "$work/reports" \
    --save-traces "$work/traces" --graph "$work/graph.dot" \
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
  [ -d "$work/reports" ] && [ -d "$work/traces" ] || fail "folders missing"
  left=$(find "$work" -mindepth 1 ! -name out.txt ! -path "$work/reports" \
    ! -path "$work/traces")
  [ -z "$left" ] || fail "files left: $left"
  [ "$status" -eq 0 ] || cat "$work/out.txt"
done
exit "$status"
