#!/bin/sh
# A counterexample saved with --save-traces names a declared strategy's file
# relative to the folder it is saved in: the scenario, its strategy file and
# the saved traces can move together (another checkout, another machine) and
# the saved trace still replays as expected. The traces folder is given
# relative to the working folder, with a trailing slash, and nothing is
# written outside it.
#
# Usage: portable_traces.sh OUTBOX_CHECK CONSUMER_SCENARIO
# CONSUMER_SCENARIO names its strategy file as strategies/NAME.toml.
set -eu
checker=$1 scenario=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "$*"; ls -laR "$work"; exit 1; }

strategy=$(sed -n 's/^strategy = { file = "\(.*\)" }$/\1/p' "$scenario")
case $strategy in
strategies/*.toml) ;;
*) fail "$scenario: no strategy file strategies/NAME.toml" ;;
esac
mkdir -p "$work/first/strategies" "$work/elsewhere"
cp "$scenario" "$work/first/"
cp "$(dirname "$scenario")/$strategy" "$work/first/$strategy"
name=$(basename "$scenario")

cd "$work/first"
"$checker" check "$name" --traces never --save-traces traces/ \
  >"$work/check.txt" 2>&1 || { cat "$work/check.txt"; fail "check failed"; }
cd "$work"
saved=$(find "$work/first/traces" -name '*.toml')
[ -n "$saved" ] || fail "no trace saved"
# Only the scenario, its strategy and the traces folder.
[ "$(cd "$work/first" && find . -mindepth 1 | sort | grep -v '^./traces/' |
  tr '\n' ' ')" = "./$name ./strategies ./$strategy ./traces " ] ||
  fail "written outside the traces folder"
for file in $saved; do
  grep -qF "strategy = { file = \"../$strategy\" }" "$file" ||
    { cat "$file"; fail "$file: the strategy file is not named from its folder"; }
done

# Move the whole folder, then replay from yet another working folder.
mv "$work/first" "$work/elsewhere/moved"
cd /
for file in "$work"/elsewhere/moved/traces/*.toml; do
  code=0
  "$checker" check "$file" --traces never >"$work/replay.txt" 2>&1 || code=$?
  [ "$code" -eq 0 ] ||
    { cat "$work/replay.txt"; fail "$file: exit $code after the move"; }
done
