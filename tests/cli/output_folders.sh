#!/usr/bin/env bash
# Output folders and files are checked before any search: one that cannot
# be made or written exits 2 with a message naming the flag and the path,
# and no search runs (the scenario given would take minutes).
#
# Usage: output_folders.sh OUTBOX_CHECK SLOW_SCENARIO
set -u
checker=$1 scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "a regular file" >"$work/file"
status=0
expect() {  # PATTERN FLAGS...
  local pattern=$1 code
  shift
  timeout 20 "$checker" check "$scenario" "$@" >"$work/out.txt" 2>&1
  code=$?
  if [ "$code" -ne 2 ] || ! grep -Eq -- "$pattern" "$work/out.txt" ||
    grep -q "search:" "$work/out.txt"; then
    echo "$*: exit code $code (expected 2), output:"
    cat "$work/out.txt"
    status=1
  fi
}
expect "^outbox-check: --report-dir: $work/file/reports: cannot create folder: " \
  --report-dir "$work/file/reports"
expect "^outbox-check: --save-traces: $work/file: (cannot create folder|not a folder)" \
  --save-traces "$work/file"
expect "^outbox-check: --graph: $work/file: (cannot create folder|not a folder)" \
  --graph "$work/file/graph.dot"
expect "^outbox-check: --graph: $work: is a folder; give a file name" \
  --graph "$work"
expect "^outbox-check: --sarif: $work/file: (cannot create folder|not a folder)" \
  --sarif "$work/file/run.sarif"
expect "^outbox-check: --sarif: $work: is a folder; give a file name" \
  --sarif "$work"
expect "^outbox-check: --itf: $work/file: (cannot create folder|not a folder)" \
  --itf "$work/file"
expect "^outbox-check: --report-dir: /proc/outbox-check-reports: cannot create folder: " \
  --report-dir /proc/outbox-check-reports
# A good folder is checked too, but a bad one after it still stops the run
# before the search.
expect "^outbox-check: --save-traces: $work/file/traces: cannot create folder: " \
  --report-dir "$work/reports" --save-traces "$work/file/traces"
# Nothing but the probed, still empty, good folder was made.
[ "$(ls -A "$work/reports")" = "" ] || { echo "probe left behind"; status=1; }
exit "$status"
