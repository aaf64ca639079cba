#!/usr/bin/env bash
# expect_exit.sh CODE PATTERN COMMAND...: runs COMMAND, passes when it exits
# with CODE and its standard output and error together match the extended
# regular expression PATTERN (empty: anything).
set -u
want=$1 pattern=$2
shift 2
output=$("$@" 2>&1)
got=$?
if [ "$got" -ne "$want" ]; then
  printf 'exit code %s, expected %s; output:\n%s\n' "$got" "$want" "$output"
  exit 1
fi
if [ -n "$pattern" ] && ! grep -Eq -- "$pattern" <<<"$output"; then
  printf 'output does not match /%s/:\n%s\n' "$pattern" "$output"
  exit 1
fi
exit 0
