#!/bin/sh
# Checks that the thread count changes nothing a user sees: the reports
# (Markdown, HTML, JSON, index, JUnit) and the printed results of the
# bundled scenarios, without wall-clock time, are byte-identical on one
# thread and on three.
#
# Usage: same_reports.sh OUTBOX_CHECK
set -eu
checker=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for threads in 1 3; do
  "$checker" check scenarios/seed scenarios/examples scenarios/presets scenarios/consumers --no-time \
    --traces always --threads "$threads" --report-dir "$work/r$threads" |
    grep -v '^reports written to' >"$work/out$threads.txt"
done
diff -r "$work/r1" "$work/r3"
diff "$work/out1.txt" "$work/out3.txt"
test -s "$work/out1.txt"
test "$(ls "$work/r1" | wc -l)" -gt 30
echo "identical"
