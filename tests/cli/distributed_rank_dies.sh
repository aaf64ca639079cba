#!/bin/sh
# A rank that dies in the middle of a distributed search: the others do
# not wait for it. The run ends within a minute with a non-zero exit code
# and a message naming the rank that died, and writes no report.
#
# Usage: distributed_rank_dies.sh OUTBOX_CHECK MPIEXEC SLOW_SCENARIO
set -u
checker=$1 mpiexec=$2 scenario=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
timeout 120 "$mpiexec" --oversubscribe -np 3 "$checker" check --distributed \
  "$scenario" --no-symmetry --partial-order off --report-dir "$work/reports" \
  >"$work/out.txt" 2>&1 &
pid=$!
# The report folder is made once the scenario is loaded; the search
# follows. The ranks are the checker processes with this folder in their
# command line.
for _ in $(seq 200); do
  [ -d "$work/reports" ] && break
  sleep 0.1
done
sleep 1
victim=$(pgrep -f -- "--report-dir $work/reports" | while read -r p; do
  [ "$(cat "/proc/$p/comm" 2>/dev/null)" = outbox-check ] && echo "$p"
done | sed -n 2p)
if [ -z "$victim" ]; then
  echo "no rank found to kill"
  cat "$work/out.txt"
  exit 1
fi
kill -KILL "$victim"
start=$(date +%s)
wait "$pid"
code=$?
took=$(($(date +%s) - start))
status=0
fail() { echo "$*"; status=1; }
[ "$code" -ne 0 ] || fail "exit code 0 after a rank died"
[ "$code" -ne 124 ] || fail "the other ranks hung"
[ "$took" -le 60 ] || fail "took $took s to end"
grep -q "signal 9" "$work/out.txt" || fail "no message about the rank killed"
[ -z "$(ls -A "$work/reports")" ] || fail "reports written: $(ls "$work/reports")"
[ "$status" -eq 0 ] || cat "$work/out.txt"
[ "$status" -eq 0 ] && echo "the others ended in $took s, exit code $code"
exit "$status"
