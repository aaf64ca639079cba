#!/bin/sh
# Checks that a search spread over MPI ranks gives what one process gives:
# on 1, 2, 3 and 4 ranks, the reports (Markdown, HTML, JSON, index, JUnit),
# the SARIF log, the ITF traces, the printed results and the --format json
# document of the bundled scenarios and of two benchmarks, without
# wall-clock time, are byte-identical to a run without --distributed. And a
# memory limit on each rank stops them all, with exit code 3.
#
# Usage: distributed.sh OUTBOX_CHECK MPIEXEC
set -eu
checker=$1 mpiexec=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Open MPI refuses root unless told; CI containers run as root.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
scenarios="scenarios/seed scenarios/examples scenarios/presets scenarios/consumers
  scenarios/unbounded scenarios/bench/1-small.toml scenarios/bench/7-mixed-faults.toml"
run() { # NAME FLAG COMMAND...: the outputs of one run, in $work/NAME
  name=$1 flag=$2
  shift 2
  # shellcheck disable=SC2086
  "$@" check $flag $scenarios --no-time --traces always \
    --report-dir "$work/$name/reports" --sarif "$work/$name/run.sarif" \
    --itf "$work/$name/itf" 2>"$work/$name/err.txt" |
    grep -v '^reports written to\|^SARIF log written to\|^ITF trace written to' \
      >"$work/$name/out.txt" || true
  # shellcheck disable=SC2086
  "$@" check $flag scenarios/seed --no-time --format json \
    >"$work/$name/run.json" 2>/dev/null || true
}
mkdir -p "$work/one"
run one "" "$checker"
test "$(ls "$work/one/reports" | wc -l)" -gt 30
test -s "$work/one/run.json"
for ranks in 1 2 3 4; do
  mkdir -p "$work/np$ranks"
  run "np$ranks" --distributed "$mpiexec" --oversubscribe -np "$ranks" "$checker"
  for f in reports run.sarif itf out.txt run.json; do
    diff -r "$work/one/$f" "$work/np$ranks/$f" ||
      { echo "$ranks ranks: $f differs"; exit 1; }
  done
  # Each search says how it spread (standard error, not the reports).
  grep -q "^distributed over $ranks rank" "$work/np$ranks/err.txt" ||
    { echo "$ranks ranks: no distribution line"; exit 1; }
  echo "$ranks ranks: identical"
done

# A memory limit on each rank stops every rank, with exit code 3 and the
# statistics so far.
code=0
"$mpiexec" --oversubscribe -np 2 "$checker" check --distributed \
  scenarios/bench/4-xlarge.toml --no-symmetry --partial-order off \
  --max-memory 20MiB --traces never >"$work/limit.txt" 2>&1 || code=$?
[ "$code" -eq 3 ] || { echo "memory limit: exit code $code, expected 3"; exit 1; }
grep -q "stopped at the memory limit: [0-9,]* distinct states" "$work/limit.txt" ||
  { echo "memory limit: no statistics"; cat "$work/limit.txt"; exit 1; }
echo "a rank's memory limit stops every rank: exit code 3"
