#!/usr/bin/env bash
# summary_output.sh OUTBOX_CHECK WRONG_EXPECTATION: the summary table of
# many scenarios fits 100 columns; colour only on a terminal and never
# with NO_COLOR; --quiet prints only the errors and the final line.
set -u
bin=$1 wrong=$2
fail() { printf '%s\n' "$*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" check scenarios/seed scenarios/examples scenarios/presets \
  scenarios/consumers "$wrong" --traces never >"$work/out.txt" 2>&1
[ $? -eq 1 ] || fail "expected exit 1 for the wrong expectation"
# The table: from the heading to the last row, one per scenario.
awk '/^scenario / { inside = 1 } inside && / (ok|UNEXPECTED|INCONCLUSIVE)$/ ||
  /^scenario / { print }' "$work/out.txt" >"$work/table.txt"
rows=$(wc -l <"$work/table.txt")
[ "$rows" -gt 60 ] || fail "only $rows table lines:
$(cat "$work/out.txt")"
wide=$(awk 'length($0) > 100' "$work/table.txt")
[ -z "$wide" ] || fail "table lines over 100 columns:
$wide"
grep -q '^wrong-expectation: UNEXPECTED: violated: effect_at_most_once (5 steps); expected holds$' \
  "$work/out.txt" || fail "no detail line for the wrong expectation"
if grep -q $'\033' "$work/out.txt"; then fail "colour in a pipe"; fi

# A terminal (script(1) gives one) gets colour, unless NO_COLOR is set.
command -v script >/dev/null || fail "script(1) is needed for this test"
script -qec "'$bin' check scenarios/seed --traces never" /dev/null \
  >"$work/tty.txt" 2>&1
grep -q $'\033\\[32mok\033\\[0m' "$work/tty.txt" ||
  fail "no colour on a terminal: $(cat -v "$work/tty.txt" | head -5)"
NO_COLOR=1 script -qec "'$bin' check scenarios/seed --traces never" \
  /dev/null >"$work/nocolor.txt" 2>&1
if grep -q $'\033' "$work/nocolor.txt"; then fail "colour despite NO_COLOR"; fi

# --quiet: the final line alone, or the errors and the final line.
out=$("$bin" check scenarios/seed --quiet --sarif "$work/run.sarif" \
  --itf "$work/itf" --save-traces "$work/saved" --report-dir "$work/reports" \
  2>&1) || fail "quiet run failed: $out"
[ "$out" = "all scenarios as expected" ] || fail "--quiet printed more:
$out"
[ -s "$work/run.sarif" ] && [ -d "$work/reports" ] ||
  fail "--quiet wrote no SARIF log or no reports"
out=$("$bin" check scenarios/seed "$wrong" --quiet 2>"$work/err.txt")
[ $? -eq 1 ] || fail "quiet run with a wrong expectation did not exit 1"
[ "$out" = "some scenario differs from its expectation" ] ||
  fail "--quiet printed more on standard output:
$out"
[ "$(wc -l <"$work/err.txt")" -eq 1 ] &&
  grep -q '^wrong-expectation (.*wrong-expectation.toml): UNEXPECTED: ' \
    "$work/err.txt" || fail "--quiet errors: $(cat "$work/err.txt")"
echo "the summary fits, colours only a terminal, and --quiet is quiet"
