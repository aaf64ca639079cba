#!/bin/sh
# Scenario names that look like paths, hold a NUL byte, are very long,
# non-ASCII, or differ only in case from another (or from a file the report
# set writes itself) still give one distinct file each, inside the folders
# given to --report-dir, --save-traces and --itf, and nothing anywhere
# else.
#
# Usage: hostile_names.sh OUTBOX_CHECK SEED_SCENARIO
set -eu
checker=$1 seed=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/out/reports" "$work/out/traces" "$work/out/itf" \
  "$work/out/sibling" "$work/scenarios" "$work/abs"
long=$(printf 'n%.0s' $(seq 300))
i=0
# One name per line, as TOML basic strings (so "\u0000" is a NUL byte).
while IFS= read -r name; do
  i=$((i + 1))
  {
    printf 'name = "%s"\n' "$name"
    grep -v '^name = ' "$seed"
  } >"$work/scenarios/s$(printf %02d $i).toml"
done <<NAMES
../
x/../../../escaped
../sibling/y
$work/abs/z
nul\\u0000byte
$long
café
事件
.hidden
..
x
X
x-2
index
INDEX
junit
NAMES
n=$i

# Run from a folder where "../" would land in $work/out, not in reports.
cd "$work/out/reports"
"$checker" check "$work/scenarios" --traces never --no-time \
  --report-dir "$work/out/reports" --save-traces "$work/out/traces" \
  --itf "$work/out/itf" >"$work/stdout.txt" 2>&1 || {
  status=$?
  # Every scenario is violated as expected: exit 0.
  echo "exit $status"; cat "$work/stdout.txt"; exit 1
}
cd "$work"

fail() { echo "$*"; ls -laR "$work/out" "$work/abs"; exit 1; }
# Only the two folders hold files, and no file sits in a sub-folder.
[ -z "$(find "$work/out/sibling" "$work/abs" -mindepth 1)" ] || fail "written outside"
[ "$(find "$work/out" -mindepth 1 -maxdepth 1 | sort | tr '\n' ' ')" = \
  "$work/out/itf $work/out/reports $work/out/sibling $work/out/traces " ] ||
  fail "stray file"
[ -z "$(find "$work/out/reports" "$work/out/traces" "$work/out/itf" \
  -mindepth 1 ! -type f)" ] || fail "a folder inside an output folder"
[ -z "$(find "$work" -name 'escaped*' -o -name '*tmp-*')" ] ||
  fail "escaped or temporary file"
# Three files per scenario plus index.md, index.html, junit.xml; one saved
# trace per scenario (each violates effect_at_most_once only).
reports=$(ls -A "$work/out/reports" | wc -l)
[ "$reports" -eq $((3 * n + 3)) ] || fail "$reports report files, not $((3 * n + 3))"
traces=$(ls -A "$work/out/traces" | wc -l)
[ "$traces" -eq "$n" ] || fail "$traces trace files, not $n"
itf=$(ls -A "$work/out/itf" | wc -l)
[ "$itf" -eq "$n" ] || fail "$itf ITF files, not $n"
# Distinct even on a case-insensitive file system.
for d in reports traces itf; do
  dups=$(ls -A "$work/out/$d" | tr 'A-Z' 'a-z' | sort | uniq -d)
  [ -z "$dups" ] || fail "names equal but for case in $d: $dups"
done
# Plain, short, visible ASCII names.
bad=$(find "$work/out/reports" "$work/out/traces" "$work/out/itf" -type f \
  -printf '%f\n' |
  grep -Ev '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,179}$' || true)
[ -z "$bad" ] || fail "unsafe names: $bad"
# The set's own files are the set's: a scenario called index did not take them.
grep -q 'outbox-check results' "$work/out/reports/index.md" || fail "index.md"
grep -q '<testsuite' "$work/out/reports/junit.xml" || fail "junit.xml"
# Safe names are kept as they are; a real "x-2" keeps its name, so the
# repeat "X" (x in any case) and the set's own stems move on to the next
# free number.
for f in x.md x-2.md X-3.md index-2.md INDEX-3.md junit-2.md; do
  [ -f "$work/out/reports/$f" ] || fail "no $f"
done
echo "all $n names inside their folders"
