#!/bin/sh
# Measures a search spread over MPI ranks (check --distributed) on this
# machine, against the same search in one process.
#
# Usage: bench/distributed.sh [SCENARIO...]
# (no scenario: the two largest benchmarks, bench-4-xlarge and
# bench-5-xxlarge)
#
# Each scenario is searched unreduced (--no-symmetry --partial-order off):
# in one process on one thread, then with --distributed on each rank count
# of RANKS. With REPEAT=n, every setting runs n times, the settings taking
# turns (one process, 1 rank, 2 ranks, ..., then again: a round), and each
# figure is the median of its n runs; a speed-up is the median of the
# rounds' own speed-ups, each against the one-rank run of its round. On a
# shared machine whose speed drifts, runs of one round meet the same
# drift. One row per setting:
#   ranks       "-" for the one-process run
#   search_s    the search's own seconds (from the report, start-up
#               excluded)
#   wall_s      the whole command, mpirun's start-up included
#   speedup     one rank's search_s / this setting's (with REPEAT, the
#               median over rounds)
#   efficiency  speedup / ranks (the share of ideal scaling; ranks beyond
#               the cores share them)
#   rss_max     the largest peak resident memory of any rank
#   B/state     bytes one rank sent the others, summed over ranks, per
#               state stored
#   crossing    the share of successors whose owner was another rank
#   runs        with REPEAT above 1: every run's search_s, in order
#
# Environment:
#   OUTBOX_CHECK  the checker (default: build/outbox-check beside this
#                 script's folder)
#   MPIEXEC       the launcher (default: mpirun)
#   RANKS         the rank counts to run (default: "1 2 4")
#   REPEAT        runs of each setting (default: 1)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
checker=${OUTBOX_CHECK:-$root/build/outbox-check}
mpiexec=${MPIEXEC:-mpirun}
ranks_list=${RANKS:-1 2 4}
repeat=${REPEAT:-1}
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
median() { # NUMBERS...: their median (the lower middle one of an even count)
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
# run SETTING: one run of a setting ("-" for one process, else a rank
# count); appends "search_s wall_s rss_mib bytes crossing" to
# $work/SETTING.runs
run() {
  flags="--no-symmetry --partial-order off --traces never"
  if [ "$1" = - ]; then
    # shellcheck disable=SC2086
    w=$(wall /usr/bin/time -f %M -o "$work/rss.txt" "$checker" check \
      "$scenario" $flags --threads 1)
    s=$(seconds_of "$work/out.txt")
    rss="$(($(tail -n 1 "$work/rss.txt") / 1024))"
    echo "$s $w $rss - -" >>"$work/$1.runs"
    return
  fi
  # shellcheck disable=SC2086
  w=$(wall "$mpiexec" --oversubscribe -np "$1" "$checker" check \
    --distributed "$scenario" $flags)
  s=$(seconds_of "$work/out.txt")
  rss=$(sed -n 's/^peak resident memory by rank: //p' "$work/err.txt" |
    tr ',' '\n' | awk '{ m = $1 }
      $2 == "GiB" { m = $1 * 1024 }
      $2 == "KiB" { m = $1 / 1024 }
      m > max { max = m }
      END { printf "%.0f", max }')
  line=$(grep '^distributed over' "$work/err.txt" | head -n 1)
  bytes=$(echo "$line" | sed -n 's/.*, \([0-9.]*\) bytes sent per state.*/\1/p')
  crossing=$(echo "$line" | sed -n 's/.*; \([0-9.]*%\) of the successors.*/\1/p')
  echo "$s $w $rss $bytes $crossing" >>"$work/$1.runs"
}
column() { # SETTING N: the median of column N of the setting's runs
  # shellcheck disable=SC2046
  median $(awk -v n="$2" '{ print $n }' "$work/$1.runs")
}

printf '%-16s %5s %9s %7s %8s %10s %9s %8s %8s %s\n' scenario ranks \
  search_s wall_s speedup efficiency rss_max B/state crossing runs
for scenario in "$@"; do
  name=$(basename "$scenario" .toml)
  rm -f "$work"/*.runs
  i=0
  while [ "$i" -lt "$repeat" ]; do
    run -
    for ranks in $ranks_list; do run "$ranks"; done
    i=$((i + 1))
  done
  one=""
  for setting in - $ranks_list; do
    s=$(column "$setting" 1)
    runs=""
    [ "$repeat" -le 1 ] || runs=$(awk '{ print $1 }' "$work/$setting.runs" |
      paste -sd' ' -)
    if [ "$setting" = - ]; then
      printf '%-16s %5s %9s %7s %8s %10s %9s %8s %8s %s\n' "$name" - "$s" \
        "$(column - 2)" - - "$(column - 3) MiB" - - "$runs"
      continue
    fi
    [ -n "$one" ] || one=$setting
    # shellcheck disable=SC2046
    speedup=$(median $(paste -d' ' "$work/$one.runs" "$work/$setting.runs" |
      awk '{ printf "%.2f\n", $1 / $6 }'))
    efficiency=$(echo "$speedup $setting" |
      awk '{ printf "%.0f%%", 100 * $1 / $2 }')
    printf '%-16s %5s %9s %7s %8s %10s %9s %8s %8s %s\n' "$name" "$setting" \
      "$s" "$(column "$setting" 2)" "$speedup" "$efficiency" \
      "$(column "$setting" 3) MiB" "$(head -n 1 "$work/$setting.runs" |
        awk '{ print $4 }')" "$(head -n 1 "$work/$setting.runs" |
        awk '{ print $5 }')" "$runs"
  done
done
