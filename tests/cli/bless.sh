#!/usr/bin/env bash
# check --bless writes what a check found into each file's [expect] table,
# keeps everything else in the file, and then checking the file again is as
# expected; it refuses (exit code 2, file unchanged) when a limit cut the
# search short. Works on copies in a temporary folder.
#
# Usage: bless.sh OUTBOX_CHECK PRESET WRONG_EXPECTATION
#   PRESET: a bundled scenario with comments whose [expect] table ends the
#   file, written in canonical form; WRONG_EXPECTATION: a scenario whose
#   [expect] says "holds" when the invariant is violated.
set -u
checker=$1 preset=$2 wrong=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() {
  echo "FAIL: $*"
  status=1
}
run() {  # WANTED_CODE NAME ARGS...: runs the checker, output in $work/NAME.out
  local want=$1 name=$2 code
  shift 2
  "$checker" "$@" >"$work/$name.out" 2>&1
  code=$?
  if [ "$code" -ne "$want" ]; then
    fail "$name: exit code $code, expected $want"
    cat "$work/$name.out"
  fi
}

# 1. A bundled scenario without its [expect] table, comments and all: the
# blessed file is the bundled file again, byte for byte.
sed '/^\[expect\]$/,$d' "$preset" >"$work/preset.toml"
grep -q '^# ' "$work/preset.toml" || fail "the copy has no comment to keep"
grep -q '^\[expect\]' "$work/preset.toml" && fail "the copy kept [expect]"
run 0 bless-new check --bless --no-time "$work/preset.toml"
grep -q "^blessed $work/preset.toml: verdict = " "$work/bless-new.out" ||
  fail "stderr does not name the blessed file"
cmp -s "$preset" "$work/preset.toml" || {
  fail "blessing the copy did not give back the bundled file"
  diff "$preset" "$work/preset.toml"
}
run 0 recheck-new check --no-time "$work/preset.toml"
grep -q "^all scenarios as expected$" "$work/recheck-new.out" ||
  fail "re-checking the blessed copy is not as expected"

# 2. A wrong [expect] table, with comments inside and around it: corrected,
# the comments kept, and re-checking is as expected.
{
  sed '/^\[expect\]$/,$d' "$wrong"
  printf '# What the author believed.\n[expect]\n# Hoped for:\nverdict = "holds"  # hopeful\n'
} >"$work/wrong.toml"
run 1 check-wrong check --no-time "$work/wrong.toml"
run 0 bless-wrong check --bless --no-time "$work/wrong.toml"
for line in '# What the author believed.' '# Hoped for:' \
  'verdict = "violated"  # hopeful' 'violated = "effect_at_most_once"' \
  'trace_length = 5' 'states = 14'; do
  grep -qxF -- "$line" "$work/wrong.toml" || fail "no line '$line' after blessing"
done
run 0 recheck-wrong check --no-time "$work/wrong.toml"
grep -q "^all scenarios as expected$" "$work/recheck-wrong.out" ||
  fail "re-checking the corrected file is not as expected"

# 3. A limit that cuts the search: refused, exit code 2, the file unchanged
# and no temporary file left beside it.
cp "$work/wrong.toml" "$work/before.toml"
sed -i 's/^verdict = "violated"  # hopeful$/verdict = "holds"/' "$work/wrong.toml"
cp "$work/wrong.toml" "$work/limited.toml"
run 2 bless-limited check --bless --no-time --max-states 3 "$work/wrong.toml"
grep -q "^outbox-check: --bless: $work/wrong.toml: the search stopped at the state limit" \
  "$work/bless-limited.out" || fail "no message saying the search was cut"
grep -q "^outbox-check: --bless: no file was changed$" "$work/bless-limited.out" ||
  fail "no message saying nothing was changed"
cmp -s "$work/wrong.toml" "$work/limited.toml" || fail "the cut search changed the file"
left=$(find "$work" -name '*.tmp-*')
[ -z "$left" ] || fail "temporary files left: $left"

# 4. With several files, one that cannot be blessed (its own state limit
# cuts its search) stops them all: the other is not written either.
cp "$work/limited.toml" "$work/blessable.toml"
{ cat "$work/limited.toml"; printf '\n[bounds]\nmax_states = 3\n'; } >"$work/bounded.toml"
cp "$work/bounded.toml" "$work/bounded.before"
run 2 bless-some check --bless --no-time "$work/blessable.toml" "$work/bounded.toml"
cmp -s "$work/blessable.toml" "$work/limited.toml" ||
  fail "a refused run blessed the file that could be"
cmp -s "$work/bounded.toml" "$work/bounded.before" || fail "a refused run changed a file"

# 5. --stop-at-first would record the shortest violation only: refused.
run 2 bless-first check --bless --stop-at-first "$work/wrong.toml"
grep -q "^outbox-check: --bless records what each file's own search finds" \
  "$work/bless-first.out" || fail "no message refusing --stop-at-first"
cmp -s "$work/wrong.toml" "$work/limited.toml" || fail "--stop-at-first changed the file"

# 6. Through a symbolic link the linked file is updated, the link stays,
# and the file keeps its permissions.
cp "$work/limited.toml" "$work/target.toml"
chmod 640 "$work/target.toml"
ln -s target.toml "$work/link.toml"
run 0 bless-link check --bless --no-time "$work/link.toml"
[ -L "$work/link.toml" ] || fail "the link was replaced by a file"
grep -qxF 'violated = "effect_at_most_once"' "$work/target.toml" ||
  fail "the linked file was not blessed"
[ "$(stat -c %a "$work/target.toml")" = 640 ] ||
  fail "permissions changed to $(stat -c %a "$work/target.toml")"

[ "$status" -eq 0 ] && echo "all bless checks passed"
exit "$status"
