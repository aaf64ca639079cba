#!/bin/sh
# Measures a search spread over MPI ranks (check --distributed) on this
# machine, against the same search in one process.
#
# Usage: bench/distributed.sh [SCENARIO...]
# (no scenario: the two largest benchmarks, bench-4-xlarge and
# bench-5-xxlarge)
#
# Each scenario is searched unreduced (--no-symmetry --partial-order off):
# once in one process on one thread, then with --distributed on each rank
# count of RANKS. One row per run:
#   ranks       "-" for the one-process run
#   search_s    the search's own seconds (from the report, start-up
#               excluded)
#   wall_s      the whole command, mpirun's start-up included
#   speedup     one rank's search_s / this run's
#   efficiency  speedup / ranks (the share of ideal scaling; ranks beyond
#               the cores share them)
#   rss_max     the largest peak resident memory of any rank
#   B/state     bytes one rank sent the others, summed over ranks, per
#               state stored
#   crossing    the share of successors whose owner was another rank
#
# Environment:
#   OUTBOX_CHECK  the checker (default: build/outbox-check beside this
#                 script's folder)
#   MPIEXEC       the launcher (default: mpirun)
#   RANKS         the rank counts to run (default: "1 2 4")
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
checker=${OUTBOX_CHECK:-$root/build/outbox-check}
mpiexec=${MPIEXEC:-mpirun}
ranks_list=${RANKS:-1 2 4}
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
[ $# -gt 0 ] || set -- "$root/scenarios/bench/4-xlarge.toml" \
  "$root/scenarios/bench/5-xxlarge.toml"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds_of() { # the search's seconds, from the "search:" line
  sed -n 's/.*search: .*, \([0-9.]*\) s$/\1/p' "$1" | head -n 1
}
wall() { # COMMAND...: runs it, prints wall seconds
  start=$(date +%s.%N)
  "$@" >"$work/out.txt" 2>"$work/err.txt" || true
  end=$(date +%s.%N)
  echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }'
}
printf '%-16s %5s %9s %7s %8s %10s %9s %8s %8s\n' scenario ranks search_s \
  wall_s speedup efficiency rss_max B/state crossing
for scenario in "$@"; do
  name=$(basename "$scenario" .toml)
  flags="--no-symmetry --partial-order off --traces never"
  # shellcheck disable=SC2086
  w=$(wall "$checker" check "$scenario" $flags --threads 1)
  s=$(seconds_of "$work/out.txt")
  rss=$( (/usr/bin/time -f %M "$checker" check "$scenario" $flags \
    --threads 1 >/dev/null) 2>&1 | tail -n 1)
  printf '%-16s %5s %9s %7s %8s %10s %9s %8s %8s\n' "$name" - "$s" "$w" - - \
    "$((rss / 1024)) MiB" - -
  one=""
  for ranks in $ranks_list; do
    # shellcheck disable=SC2086
    w=$(wall "$mpiexec" --oversubscribe -np "$ranks" "$checker" check \
      --distributed "$scenario" $flags)
    s=$(seconds_of "$work/out.txt")
    [ -n "$one" ] || one=$s
    rss_max=$(sed -n 's/^peak resident memory by rank: //p' "$work/err.txt" |
      tr ',' '\n' | awk '{ m = $1 }
        $2 == "GiB" { m = $1 * 1024 }
        $2 == "KiB" { m = $1 / 1024 }
        m > max { max = m }
        END { printf "%.0f MiB", max }')
    line=$(grep '^distributed over' "$work/err.txt" | head -n 1)
    bytes=$(echo "$line" | sed -n 's/.*, \([0-9.]*\) bytes sent per state.*/\1/p')
    crossing=$(echo "$line" | sed -n 's/.*; \([0-9.]*%\) of the successors.*/\1/p')
    speedup=$(echo "$one $s" | awk '{ printf "%.2f", $1 / $2 }')
    efficiency=$(echo "$speedup $ranks" | awk '{ printf "%.0f%%", 100 * $1 / $2 }')
    printf '%-16s %5s %9s %7s %8s %10s %9s %8s %8s\n' "$name" "$ranks" "$s" \
      "$w" "$speedup" "$efficiency" "$rss_max" "$bytes" "$crossing"
  done
done
