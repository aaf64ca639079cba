#!/bin/sh
# Compares our exhaustive search with SPIN's on the same scenarios.
#
# Usage: bench/spin_compare.sh [SCENARIO...]
# (no scenario: every benchmark in scenarios/bench/ but those with budgets
# of "any" or a partitioned broker, which have no Promela export, in name
# order)
#
# For each scenario: `outbox-check bench FILE --json` under four settings
# (symmetry off and on, one thread and two), then its Promela export run by
# SPIN (pan compiled with -DNOREDUCE -DNOCLAIM -DSAFETY, compile time
# excluded; "states, stored" and pan's elapsed time). Prints one row per
# scenario:
#   states      ours (unreduced) and SPIN's, and whether they are equal;
#   spin_s      pan's search seconds, and its states per second;
#   1t_s        our unreduced search on one thread, its states per second,
#               and spin_s / 1t_s (above 1: we are faster), and the
#               bytes per stored state by that search's own peak resident
#               memory (the target is at most 16 on the largest). Where
#               taskset can hold a program to one processor, pan and this
#               search are both held to the same one (SPIN_COMPARE_CPU,
#               default 1): a virtual machine's processors need not be
#               equally fast (a host that runs other work beside one of
#               them slows it), and each tool left to the scheduler could
#               land on either. Their runs are taken in turns (ours
#               on each processor, then pan, again and again), so that
#               each pan run is timed within seconds of ours;
#   2t_s        our unreduced search on two threads, and the speed-up:
#               the one-thread search's seconds, left to the scheduler,
#               over these;
#   cpu0_s, cpu1_s  the one-thread search held to processor 0 and to
#               processor 1, and `ceil`: the speed-up two threads would
#               have if each ran as fast as one thread alone on its
#               processor, 1t * (1 / cpu0_s + 1 / cpu1_s) with 1t the
#               search left to the scheduler. When one processor is
#               slower, two threads cannot reach twice one thread's speed.
#               ("-" without taskset or a second processor.)
#   both0_s, both1_s  the same two searches run at the same time, one held
#               to each processor, and `ceil2`: the same ceiling from
#               these, 1t * (1 / both0_s + 1 / both1_s). It counts what
#               the processors lose to each other when both are busy (a
#               cache or memory they share, a host that runs other work
#               beside them), which no search of ours can avoid; two
#               threads below it lose time of their own. ("-" as above.)
#   sym_s       with symmetry reduction on two threads, and spin_s / sym_s;
#   por         states stored with symmetry and partial-order reduction
#               (two threads);
#   spin_por    states pan stores with its own partial-order reduction
#               (pan compiled without -DNOREDUCE);
#   /noreduce   spin_states / por: how many times fewer states we store
#               than pan without reduction (the target is at least 10);
#   /spin_por   spin_por / por: the same against pan with its reduction
#               (the target is at least 2).
#
# Environment:
#   OUTBOX_CHECK    the checker (default: build/outbox-check beside this
#                   script's folder)
#   SPIN_MEMLIM     pan's memory limit in MB (-DMEMLIM; default 16384)
#   SPIN_COMPARE_CPU  the processor pan and our one-thread search are
#                   held to, when taskset can (default 1: the second)
#   PAN_FLAGS       pan's run flags (default: -m10000000 -w24 -A: a depth
#                   limit far above any search here, a 2^24-slot hash table,
#                   assertions ignored so a violation does not stop it)
#   SPIN_COMPARE_SECONDS  how long each timed measurement is repeated
#                   for (default 10): a scenario whose first search of the
#                   four settings took s seconds has each of its timings
#                   (our searches, pinned and not, and pan's) taken
#                   min(5, max(1, SPIN_COMPARE_SECONDS / s)) times
#                   (rounded down), and the least of them kept, for both
#                   tools alike
# Seconds are each tool's own figure of its search: ours from bench, pan's
# "elapsed time"; both exclude start-up and, for SPIN, generating and
# compiling pan.c. The machine's other load shows in both. On a virtual
# machine it comes and goes: one search of bench-3-large took 0.78 s and,
# minutes later, 1.16 s. The least of several runs is the figure least
# changed by it, so short searches (pan gives hundredths of a second) are
# run more than once; run the whole comparison more than once too.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
checker=${OUTBOX_CHECK:-$root/build/outbox-check}
memlim=${SPIN_MEMLIM:-16384}
repeat_seconds=${SPIN_COMPARE_SECONDS:-10}
pan_flags=${PAN_FLAGS:--m10000000 -w24 -A}

if [ $# -eq 0 ]; then
  # Budgets of "any" and the partitioned broker have no Promela export
  # (SPIN would need the budgets finite; the export models the bag).
  set --
  for file in "$root"/scenarios/bench/*.toml; do
    grep -q '= "any"\|delivery = "partitioned"' "$file" || set -- "$@" "$file"
  done
fi
for tool in spin cc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$0: $tool is not installed (apt-get install spin gcc)" >&2
    exit 2
  fi
done
if [ ! -x "$checker" ]; then
  echo "$0: no checker at $checker (build it, or set OUTBOX_CHECK)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The least of the numbers on standard input, or nothing when there is none.
least() {
  awk 'NF && (n == 0 || $1 + 0 < m) { m = $1 + 0; n = 1 } END { if (n) print m }'
}

# a / b with `scale` decimals, or "-" when b is zero.
div() {
  awk -v a="$1" -v b="$2" -v f="$3" \
    'BEGIN { if (b + 0 == 0) print "-"; else printf f "\n", a / b }'
}

# ONE / CPU0 + ONE / CPU1 for the arguments ONE CPU0 CPU1 (a speed-up's
# ceiling), or "-" when one is missing or zero.
ceiling() {
  if [ -n "$1" ] && [ -n "$2" ] && [ -n "$3" ]; then
    awk -v a="$1" -v b="$2" -v c="$3" \
      'BEGIN { if (b + 0 == 0 || c + 0 == 0) print "-"; else printf "%.2f\n", a / b + a / c }'
  else
    echo -
  fi
}

row() {
  printf '%-24s %10s %10s %5s | %7s %9s | %7s %9s %6s %6s | %7s %5s | %7s %7s %5s | %7s %7s %5s | %7s %6s | %8s %9s %9s %9s\n' "$@"
}
row scenario states spin_states equal spin_s spin_st/s 1t_s 1t_st/s x_spin 1t_B/st \
  2t_s x_1t cpu0_s cpu1_s ceil both0_s both1_s ceil2 sym_s x_spin \
  por spin_por /noreduce /spin_por
# Whether taskset can hold a program to processor 0, to processor 1 and to
# the one both tools share (`on`: the command prefix that does it).
cpu=${SPIN_COMPARE_CPU:-1}
pinned=no
on=
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null &&
  taskset -c 1 true 2>/dev/null && taskset -c "$cpu" true 2>/dev/null; then
  pinned=yes
  on="taskset -c $cpu"
fi
status=0
for file in "$@"; do
  name=$(basename "$file" .toml)
  dir="$work/$name"
  mkdir -p "$dir"

  # Ours: one JSON line per setting, in the order asked for.
  ours() {
    "$checker" bench "$file" --json --symmetry off,on --threads 1,2 \
      2>>"$dir/ours.log" || true
  }
  ours >"$dir/ours.json"
  # field LINE KEY: the value of KEY on line LINE of ours.json.
  field() {
    sed -n "${1}p" "$dir/ours.json" |
      sed -n "s/.*\"$2\": \"\{0,1\}\([^,\"}]*\).*/\1/p"
  }
  # How many times each timing is taken (SPIN_COMPARE_SECONDS).
  first_s=$(for line in 1 2 3 4; do field "$line" seconds; done |
    awk '{ s += $1 } END { print s + 0 }')
  runs=$(awk -v want="$repeat_seconds" -v s="$first_s" \
    'BEGIN { n = s > 0 ? int(want / s) : 5; if (n < 1) n = 1; if (n > 5) n = 5; print n }')
  echo "$name: each time the least of $runs runs" >&2
  : >"$dir/ours.more.json"
  run=1
  while [ "$run" -lt "$runs" ]; do
    ours >>"$dir/ours.more.json"
    run=$((run + 1))
  done
  # seconds SYMMETRY THREADS: the least seconds of that setting over
  # every run.
  seconds() {
    grep -h "\"symmetry\": \"$1\".*\"threads\": $2," \
      "$dir/ours.json" "$dir/ours.more.json" |
      sed -n 's/.*"seconds": \([0-9.e+-]*\).*/\1/p' | least
  }
  our_states=$(field 1 states)
  free_s=$(seconds off 1)  # one thread, left to the scheduler
  one_peak=$(field 1 peak_resident_bytes)
  two_s=$(seconds off 2)
  sym_s=$(seconds on 2)
  "$checker" bench "$file" --json --symmetry on --partial-order on \
    --threads 2 >>"$dir/ours.json" 2>>"$dir/ours.log" || true
  por_stored=$(field 5 partial_order_stored_states)
  # SPIN: export, generate and compile pan (not timed).
  spin_states=
  spin_s=
  spin_por=
  have_pan=no
  if "$checker" export --promela "$file" -o "$dir/model.pml" 2>"$dir/export.log" &&
    (cd "$dir" && spin -o2 -a model.pml >spin.log 2>&1 &&
      cc -O2 -w -DNOREDUCE -DNOCLAIM -DSAFETY -DMEMLIM="$memlim" -o pan pan.c \
        >cc.log 2>&1); then
    have_pan=yes
  else
    echo "$name: export, spin or cc failed:" >&2
    cat "$dir"/*.log >&2
  fi

  # one_pinned CPU: one run of the one-thread search held to CPU, its
  # seconds.
  one_pinned() {
    taskset -c "$1" "$checker" bench "$file" --json --symmetry off \
      --threads 1 2>>"$dir/ours.log" |
      sed -n 's/.*"seconds": \([0-9.e+-]*\).*/\1/p'
  }
  # The one-thread search held to each processor, and pan, taken in
  # turns, `runs` times: the machine's load drifts from minute to minute,
  # and so a pan run and the search held to the same processor are
  # always timed within seconds of each other.
  : >"$dir/cpu0" && : >"$dir/cpu1" && : >"$dir/pan.log"
  run=0
  while [ "$run" -lt "$runs" ]; do
    if [ "$pinned" = yes ]; then
      for side in 0 1; do one_pinned "$side" >>"$dir/cpu$side"; done
    fi
    if [ "$have_pan" = yes ]; then
      # shellcheck disable=SC2086  # on and pan_flags are lists of words
      (cd "$dir" && $on ./pan $pan_flags >>pan.log 2>&1) || true
    fi
    run=$((run + 1))
  done
  cpu0_s=
  cpu1_s=
  both0_s=
  both1_s=
  one_s=$free_s
  if [ "$pinned" = yes ]; then
    cpu0_s=$(least <"$dir/cpu0")
    cpu1_s=$(least <"$dir/cpu1")
    # The two at the same time, `runs` times; the least of each side.
    run=0
    : >"$dir/both0" && : >"$dir/both1"
    while [ "$run" -lt "$runs" ]; do
      for side in 0 1; do
        one_pinned "$side" >>"$dir/both$side" &
      done
      wait
      run=$((run + 1))
    done
    both0_s=$(least <"$dir/both0")
    both1_s=$(least <"$dir/both1")
    case "$cpu" in
      0) one_s=$cpu0_s ;;
      1) one_s=$cpu1_s ;;
      *)
        one_s=$(run=0
          while [ "$run" -lt "$runs" ]; do
            one_pinned "$cpu"
            run=$((run + 1))
          done | least)
        ;;
    esac
  fi
  ceil=$(ceiling "$free_s" "$cpu0_s" "$cpu1_s")
  ceil2=$(ceiling "$free_s" "$both0_s" "$both1_s")

  if [ "$have_pan" = yes ]; then
    spin_states=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' \
      "$dir/pan.log" | head -n 1)
    spin_s=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' \
      "$dir/pan.log" | least)
    # The same model with SPIN's own partial-order reduction.
    # shellcheck disable=SC2086  # pan_flags is a list of flags
    (cd "$dir" && cc -O2 -w -DNOCLAIM -DSAFETY -DMEMLIM="$memlim" -o pan_por \
      pan.c >cc_por.log 2>&1 && ./pan_por $pan_flags >pan_por.log 2>&1) || true
    spin_por=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' "$dir/pan_por.log")
    if grep -q 'max search depth too small\|out of memory' "$dir/pan.log"; then
      echo "$name: pan stopped early:" >&2
      grep 'max search depth too small\|out of memory' "$dir/pan.log" | head -n 1 >&2
      spin_states="${spin_states}!"
    fi
  fi

  equal=no
  [ -n "$our_states" ] && [ "$our_states" = "$spin_states" ] && equal=yes
  [ "$equal" = yes ] || status=1
  row "$name" "${our_states:--}" "${spin_states:--}" "$equal" \
    "${spin_s:--}" "$(div "${spin_states:-0}" "${spin_s:-0}" '%.0f')" \
    "${one_s:--}" "$(div "${our_states:-0}" "${one_s:-0}" '%.0f')" \
    "$(div "${spin_s:-0}" "${one_s:-0}" '%.2f')" \
    "$(div "${one_peak:-0}" "${our_states:-0}" '%.1f')" \
    "${two_s:--}" "$(div "${free_s:-0}" "${two_s:-0}" '%.2f')" \
    "${cpu0_s:--}" "${cpu1_s:--}" "$ceil" \
    "${both0_s:--}" "${both1_s:--}" "$ceil2" \
    "${sym_s:--}" "$(div "${spin_s:-0}" "${sym_s:-0}" '%.1f')" \
    "${por_stored:--}" "${spin_por:--}" \
    "$(div "${spin_states:-0}" "${por_stored:-0}" '%.1f')" \
    "$(div "${spin_por:-0}" "${por_stored:-0}" '%.1f')"
done
exit "$status"
