#!/bin/sh
# SPIN explores the Promela export of every exhaustive bundled scenario with
# a pinned state count (`states =` in [expect]) and must store exactly that
# many states: the export mirrors the model's state, guards and effects.
#
# Usage: spin_counts_test.sh OUTBOX_CHECK SOURCE_DIR
# Exit 0 all equal, 1 a count differs or a tool failed, 77 SPIN or a C
# compiler is missing (ctest: skipped).
set -u
checker=$1
source_dir=$2

if ! command -v spin >/dev/null 2>&1; then
  echo "skipped: spin not installed"
  exit 77
fi
if ! command -v cc >/dev/null 2>&1; then
  echo "skipped: no C compiler (cc) for SPIN's pan.c"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=0
checked=0
for file in "$source_dir"/scenarios/seed/*.toml "$source_dir"/scenarios/examples/*.toml; do
  # Exhaustive scenarios only: a pinned order has no state count.
  grep -q '^order *=' "$file" && continue
  expected=$(sed -n 's/^states *= *\([0-9][0-9]*\).*/\1/p' "$file")
  [ -n "$expected" ] || continue
  name=$(basename "$file" .toml)
  dir="$work/$name"
  mkdir -p "$dir"
  if ! "$checker" export --promela "$file" -o "$dir/model.pml"; then
    echo "FAIL $name: export failed"
    failures=$((failures + 1))
    continue
  fi
  # -O0: compiling pan.c dominates on these small spaces. -A: assertions
  # (the scenario's safety invariants) do not stop the search.
  if ! (cd "$dir" && spin -o2 -a model.pml >spin.log 2>&1 &&
        cc -O0 -w -DNOREDUCE -DNOCLAIM -DSAFETY -o pan pan.c >cc.log 2>&1 &&
        ./pan -m1000000 -w20 -A >pan.log 2>&1); then
    echo "FAIL $name: spin, cc or pan failed:"
    cat "$dir"/*.log
    failures=$((failures + 1))
    continue
  fi
  if grep -q 'max search depth too small' "$dir/pan.log"; then
    echo "FAIL $name: pan's depth limit (-m) cut the search short"
    failures=$((failures + 1))
    continue
  fi
  stored=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' "$dir/pan.log")
  checked=$((checked + 1))
  if [ "$stored" = "$expected" ]; then
    echo "ok   $name: $stored states"
  else
    echo "FAIL $name: SPIN stored ${stored:-?} states, the scenario pins $expected"
    failures=$((failures + 1))
  fi
done

if [ "$checked" -eq 0 ]; then
  echo "FAIL: no scenario with a pinned state count found under $source_dir/scenarios"
  exit 1
fi
[ "$failures" -eq 0 ] || exit 1
echo "all $checked state counts equal"
