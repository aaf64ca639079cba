#!/usr/bin/env bash
# init_scenario.sh OUTBOX_CHECK: `init` writes a scenario that checks as its
# [expect] says, from the default preset and from every preset; it never
# replaces a file without --force, refuses a folder, leaves no temporary
# file, and suggests the closest name for a misspelt preset.
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { printf '%s\n' "$*"; exit 1; }

# The default preset, from another working folder.
cd "$work" || exit 1
out=$("$bin" init first.toml 2>&1) || fail "init failed: $out"
grep -q '^# A scenario for outbox-check, written by `outbox-check init`' \
  first.toml || fail "no header in first.toml"
grep -q '^name = "first"$' first.toml || fail "first.toml is not named first"
grep -q '^# What the check finds' first.toml || fail "no note on [expect]"
out=$("$bin" check first.toml 2>&1) || fail "check of the default failed: $out"

# Never replaced without --force; replaced with it, atomically.
printf 'mine\n' >taken.toml
out=$("$bin" init taken.toml 2>&1)
[ $? -eq 2 ] || fail "init over an existing file did not exit 2: $out"
grep -q 'taken.toml already exists; --force replaces it' <<<"$out" ||
  fail "unexpected message: $out"
[ "$(cat taken.toml)" = mine ] || fail "taken.toml was changed"
out=$("$bin" init taken.toml --force --from broker-loses-write 2>&1) ||
  fail "init --force failed: $out"
grep -q '^name = "taken"$' taken.toml || fail "--force did not replace"

# A folder, and a misspelt preset.
mkdir folder
out=$("$bin" init folder 2>&1)
[ $? -eq 2 ] && grep -q 'folder is a folder' <<<"$out" ||
  fail "init of a folder: $out"
out=$("$bin" init x.toml --from sqs-fifo.quick-resen 2>&1)
[ $? -eq 2 ] || fail "an unknown preset did not exit 2: $out"
grep -q "unknown preset 'sqs-fifo.quick-resen'; did you mean 'sqs-fifo.quick-resend'?" \
  <<<"$out" || fail "no did-you-mean: $out"
[ ! -e x.toml ] || fail "x.toml was written for an unknown preset"

# Every preset, into one folder that is then checked as a whole.
mkdir every
presets=$("$bin" list presets | awk '{ print $1 }')
[ -n "$presets" ] || fail "list presets printed nothing"
for preset in $presets; do
  out=$("$bin" init "every/$preset.copy.toml" --from "$preset" 2>&1) ||
    fail "init --from $preset failed: $out"
done
out=$("$bin" check every --traces never 2>&1) ||
  fail "the scenarios init wrote do not check as expected: $out"
leftovers=$(find "$work" -name '*.tmp-*')
[ -z "$leftovers" ] || fail "temporary files left: $leftovers"
echo "init writes scenarios that check as they say"
