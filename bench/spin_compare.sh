#!/bin/sh
# Compares our exhaustive search with SPIN's on the same scenarios.
#
# Usage: bench/spin_compare.sh SCENARIO...
#
# For each scenario: `outbox-check check FILE --traces never` (distinct
# states and seconds from its summary line), then its Promela export run by
# SPIN (pan compiled with -DNOREDUCE -DNOCLAIM -DSAFETY, compile time
# excluded; "states, stored" and pan's elapsed time). Prints one table row
# per scenario: states of each, whether they are equal, seconds of each,
# the ratio SPIN seconds / our seconds, and states per second of each.
#
# Environment:
#   OUTBOX_CHECK    the checker (default: build/outbox-check beside this
#                   script's folder)
#   SPIN_MEMLIM     pan's memory limit in MB (-DMEMLIM; default 16384)
#   PAN_FLAGS       pan's run flags (default: -m10000000 -w24 -A: a depth
#                   limit far above any search here, a 2^24-slot hash table,
#                   assertions ignored so a violation does not stop it)
# Seconds are each tool's own figure: ours from the summary line (two
# decimals), pan's "elapsed time"; both exclude start-up and, for SPIN,
# generating and compiling pan.c.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
checker=${OUTBOX_CHECK:-$root/build/outbox-check}
memlim=${SPIN_MEMLIM:-16384}
pan_flags=${PAN_FLAGS:--m10000000 -w24 -A}

if [ $# -eq 0 ]; then
  echo "usage: $0 SCENARIO..." >&2
  exit 2
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

# a / b with `scale` decimals, or "-" when b is zero.
div() {
  awk -v a="$1" -v b="$2" -v f="$3" \
    'BEGIN { if (b + 0 == 0) print "-"; else printf f "\n", a / b }'
}

printf '%-40s %12s %12s %6s %9s %9s %8s %12s %12s\n' scenario our_states \
  spin_states equal our_s spin_s spin/our our_st/s spin_st/s
status=0
for file in "$@"; do
  name=$(basename "$file" .toml)
  dir="$work/$name"
  mkdir -p "$dir"

  # Ours: "search: exhaustive ..., complete: N distinct states, ..., S s".
  "$checker" check "$file" --traces never >"$dir/ours.log" 2>&1 || true
  summary=$(grep -m1 'distinct states' "$dir/ours.log" || true)
  our_states=$(echo "$summary" | sed -n 's/.* \([0-9][0-9]*\) distinct states.*/\1/p')
  our_s=$(echo "$summary" | sed -n 's/.*, \([0-9.][0-9.]*\) s$/\1/p')

  # SPIN: export, generate and compile pan (not timed), run it.
  spin_states=
  spin_s=
  if "$checker" export --promela "$file" -o "$dir/model.pml" 2>"$dir/export.log" &&
    (cd "$dir" && spin -o2 -a model.pml >spin.log 2>&1 &&
      cc -O2 -w -DNOREDUCE -DNOCLAIM -DSAFETY -DMEMLIM="$memlim" -o pan pan.c \
        >cc.log 2>&1); then
    # shellcheck disable=SC2086  # pan_flags is a list of flags
    (cd "$dir" && ./pan $pan_flags >pan.log 2>&1) || true
    spin_states=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' "$dir/pan.log")
    spin_s=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$dir/pan.log")
    if grep -q 'max search depth too small\|out of memory' "$dir/pan.log"; then
      echo "$name: pan stopped early:" >&2
      grep 'max search depth too small\|out of memory' "$dir/pan.log" >&2
      spin_states="${spin_states}!"
    fi
  else
    echo "$name: export, spin or cc failed:" >&2
    cat "$dir"/*.log >&2
  fi

  equal=no
  [ -n "$our_states" ] && [ "$our_states" = "$spin_states" ] && equal=yes
  [ "$equal" = yes ] || status=1
  printf '%-40s %12s %12s %6s %9s %9s %8s %12s %12s\n' "$name" \
    "${our_states:--}" "${spin_states:--}" "$equal" "${our_s:--}" \
    "${spin_s:--}" "$(div "${spin_s:-0}" "${our_s:-0}" '%.2f')" \
    "$(div "${our_states:-0}" "${our_s:-0}" '%.0f')" \
    "$(div "${spin_states:-0}" "${spin_s:-0}" '%.0f')"
done
exit "$status"
