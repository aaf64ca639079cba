#!/usr/bin/env bash
# Runs one libFuzzer target over seeds drawn from the bundled files.
#
#   run_fuzzer.sh BINARY SURFACE SOURCE_DIR [libFuzzer flags...]
#
# SURFACE picks the seeds: scenario_loader and check take the scenario
# files, strategy_loader the strategy files, invariant_definition the
# invariant definitions, expression every `holds = "..."` text, and
# pinned_order the steps of every pinned order. The corpus grows in a
# temporary folder, so the source tree is never written. Exits non-zero on
# any crash, sanitizer report, leak, timeout or out-of-memory, after
# printing the input that caused it (also kept under $OC_FUZZ_ARTIFACTS
# when set).
set -euo pipefail
bin=$1 surface=$2 src=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus=$work/corpus
mkdir -p "$corpus" "$work/artifacts"

scenario_files() {
  find "$src/scenarios" "$src/tests/cli/data" -name '*.toml' \
    -not -path '*/strategies/*' -not -path '*/invariants/*' | sort
}
# A fresh file per seed (a counter would not survive the subshells of the
# pipelines below).
seed() { cat >"$(mktemp "$corpus/seed-XXXXXX")"; }
case $surface in
  scenario_loader | check)
    while read -r f; do seed <"$f"; done < <(scenario_files) ;;
  strategy_loader)
    while read -r f; do seed <"$f"; done < <(find "$src" -path '*/strategies/*.toml' -not -path '*/build*' | sort) ;;
  invariant_definition)
    for f in "$src"/scenarios/invariants/*.toml; do seed <"$f"; done ;;
  expression)
    while read -r f; do
      sed -n 's/^holds = "\(.*\)"$/\1/p' "$f" | while read -r line; do
        printf '%s' "$line" | seed
      done
    done < <(find "$src/scenarios" -name '*.toml' | sort) ;;
  pinned_order)
    while read -r f; do
      sed -n 's/^ *"\([a-z_]*(.*)\)",\{0,1\}$/\1/p' "$f" | seed
    done < <(find "$src/scenarios" -name '*.order.toml' | sort) ;;
  *) echo "run_fuzzer.sh: unknown surface '$surface'" >&2; exit 2 ;;
esac

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
"$bin" -dict="$here/outbox.dict" -max_len=8192 -timeout=20 -rss_limit_mb=3072 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" "$corpus" ||
  status=$?
if [ "$status" -ne 0 ]; then
  for a in "$work"/artifacts/*; do
    [ -e "$a" ] || continue
    echo "run_fuzzer.sh: $surface: input that failed ($(basename "$a")), base64:"
    base64 "$a"
    if [ -n "${OC_FUZZ_ARTIFACTS:-}" ]; then
      mkdir -p "$OC_FUZZ_ARTIFACTS"
      cp "$a" "$OC_FUZZ_ARTIFACTS/$surface-$(basename "$a")"
    fi
  done
fi
exit "$status"
