#!/usr/bin/env bash
# help_text.sh OUTBOX_CHECK: each command's --help lists its own exit codes
# and no other command's, choices read "a|b|c" (never CLI11's
# "{a->1,...}"), and --max-states says the unit the limit counts.
set -u
bin=$1
fail() { printf '%s\n' "$*"; exit 1; }
help() { "$bin" "$@" --help 2>&1 || fail "$* --help failed"; }

for command in check bench export conform list init; do
  text=$(help "$command")
  grep -q '^Exit codes:' <<<"$text" || fail "$command --help has no exit codes"
  if grep -Eq -- '->|\{[a-z]+,' <<<"$text"; then
    fail "$command --help shows a raw choice map:
$(grep -E -- '->|\{[a-z]+,' <<<"$text")"
  fi
done

check=$(help check)
grep -q '^  1  a verdict' <<<"$check" || fail "check --help lacks exit code 1"
grep -q '^  3  a limit stopped a search' <<<"$check" ||
  fail "check --help lacks exit code 3"
grep -q -- '--traces auto|always|never' <<<"$check" ||
  fail "check --help does not show --traces auto|always|never"
grep -q -- '--format text|json' <<<"$check" ||
  fail "check --help does not show --format text|json"
grep -q -- '--progress auto|always|never' <<<"$check" ||
  fail "check --help does not show --progress auto|always|never"
grep -q 'stored this many states' <<<"$check" ||
  fail "check --help does not say --max-states counts stored states"

export_help=$(help export)
for code in 1 3; do
  if grep -q "^  $code  " <<<"$export_help"; then
    fail "export --help lists exit code $code, which export never returns"
  fi
done
grep -q '^  0  the model was written' <<<"$export_help" ||
  fail "export --help lacks its own exit code 0"

grep -q -- '--symmetry off|on' <<<"$(help bench)" ||
  fail "bench --help does not show --symmetry off|on"

for command in list init; do
  if grep -q '^  [13]  ' <<<"$(help "$command")"; then
    fail "$command --help lists an exit code it never returns"
  fi
done

top=$(help)
if grep -q 'a limit stopped a search' <<<"$top"; then
  fail "the program's --help lists check's exit codes"
fi
echo "every command's help is its own"
