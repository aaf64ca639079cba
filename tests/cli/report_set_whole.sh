#!/usr/bin/env bash
# A report set is written whole or not at all: when one of its files cannot
# be put in place (a folder of that name is in the way), none of the others
# appears either, and no temporary file or folder is left.
#
# Usage: report_set_whole.sh OUTBOX_CHECK SCENARIO
set -u
checker=$1 scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/reports/junit.xml"
"$checker" check "$scenario" --no-time --report-dir "$work/reports" \
  >"$work/out.txt" 2>&1
code=$?
status=0
[ "$code" -eq 2 ] || { echo "exit code $code, expected 2"; status=1; }
grep -q "^outbox-check: --report-dir: $work/reports/junit.xml: is a folder; nothing of this set was written" \
  "$work/out.txt" || { echo "no message naming the file"; status=1; }
left=$(find "$work/reports" -mindepth 1 ! -path "$work/reports/junit.xml")
[ -z "$left" ] || { echo "written anyway: $left"; status=1; }
[ "$status" -eq 0 ] || cat "$work/out.txt"
exit "$status"
