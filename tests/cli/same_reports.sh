#!/bin/sh
# Checks that the thread count changes nothing a user sees: the reports
# (Markdown, HTML, JSON, index, JUnit), the SARIF log, the ITF traces, the
# printed results and the --format json document of the bundled scenarios,
# without wall-clock time, are byte-identical on one thread and on three.
#
# Usage: same_reports.sh OUTBOX_CHECK
set -eu
checker=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for threads in 1 3; do
  "$checker" check scenarios/seed scenarios/examples scenarios/presets scenarios/consumers --no-time \
    --traces always --threads "$threads" --report-dir "$work/r$threads" \
    --sarif "$work/s$threads/run.sarif" --itf "$work/s$threads/itf" |
    grep -v '^reports written to\|^SARIF log written to\|^ITF trace written to' \
      >"$work/out$threads.txt"
  "$checker" check scenarios/seed --no-time --format json \
    --threads "$threads" >"$work/json$threads.json" 2>/dev/null
done
diff -r "$work/r1" "$work/r3"
diff -r "$work/s1" "$work/s3"
diff "$work/out1.txt" "$work/out3.txt"
diff "$work/json1.json" "$work/json3.json"
test -s "$work/json1.json"
test "$(ls "$work/s1/itf" | wc -l)" -gt 10
test -s "$work/out1.txt"
test "$(ls "$work/r1" | wc -l)" -gt 30
echo "identical"
