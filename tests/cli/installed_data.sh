#!/usr/bin/env bash
# installed_data.sh OUTBOX_CHECK BUILD_DIR: the bundled scenarios are found
# from where the binary is, whatever the working folder: the build's
# binary finds its checkout, an installed one (cmake --install) the copy
# installed beside it, and a lone copy elsewhere says where it looked. The
# install also lays out the manual page and the documentation.
set -u
bin=$1 build=$2
fail() { printf '%s\n' "$*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd / || exit 1
quick=(--threads 1 --symmetry on --max-states 20)

# The build's binary, run from /: bench without paths runs the benchmarks.
out=$("$bin" bench "${quick[@]}" 2>&1)
[ $? -eq 3 ] || fail "bench from / did not stop at the limit (exit 3): $out"
grep -q '^bench-1-small ' <<<"$out" && grep -q '^bench-7-mixed-faults ' \
  <<<"$out" || fail "bench from / did not run the benchmarks: $out"

# Installed: the data beside the binary, not the checkout, is what counts.
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
  fail "cmake --install failed: $(cat "$work/install.log")"
installed=$work/prefix/bin/outbox-check
data=$work/prefix/share/outbox-check/scenarios
[ -x "$installed" ] && [ -d "$data/presets" ] && [ -d "$data/bench" ] ||
  fail "install laid out no binary or no scenarios"
# What ships beside the binary: its manual page, valid roff with every
# command and the installed data folder, the schemas and the documentation.
man=$work/prefix/share/man/man1/outbox-check.1
[ -f "$man" ] || fail "cmake --install laid out no manual page at $man"
for section in NAME SYNOPSIS DESCRIPTION CHECK BENCH EXPORT CONFORM LIST \
  INIT '"EXIT STATUS"' FILES '"SEE ALSO"'; do
  grep -qx "\.SH $section" "$man" || fail "the manual page has no $section section"
done
grep -q '^\.TH OUTBOX\\-CHECK 1 ' "$man" || fail "the manual page has no .TH line"
grep -q 'share/outbox\\-check/scenarios/' "$man" ||
  fail "the manual page's FILES does not name the installed data folder"
if command -v groff >/dev/null; then
  warnings=$(groff -ww -z -man "$man" 2>&1)
  [ -z "$warnings" ] || fail "groff warns about the manual page: $warnings"
fi
for f in share/outbox-check/scenarios/schema/scenario.schema.json \
  share/doc/outbox-check/README.md share/doc/outbox-check/docs/SEMANTICS.md; do
  [ -f "$work/prefix/$f" ] || fail "cmake --install laid out no $f"
done

sed 's/^name = .*/name = "only-installed"/' "$data/bench/1-small.toml" \
  >"$data/bench/0-only-installed.toml"
out=$("$installed" bench "${quick[@]}" 2>&1)
grep -q '^only-installed ' <<<"$out" ||
  fail "the installed binary does not run its installed benchmarks: $out"
cp "$data/presets/broker-loses-write.toml" "$data/presets/only-installed.toml"
"$installed" list presets | grep -q '^only-installed ' ||
  fail "the installed binary does not list its installed presets"
out=$("$installed" init "$work/new.toml" --from only-installed 2>&1) ||
  fail "init from an installed preset failed: $out"
out=$("$installed" check "$work/new.toml" 2>&1) ||
  fail "the installed preset's copy does not check: $out"

# A copy with no data beside it.
mkdir "$work/lone"
cp "$installed" "$work/lone/outbox-check"
out=$("$work/lone/outbox-check" bench "${quick[@]}" 2>&1)
[ $? -eq 2 ] || fail "a lone binary's bench did not exit 2: $out"
grep -q "the bundled scenarios are not beside $work/lone/outbox-check" \
  <<<"$out" || fail "unexpected message: $out"
echo "the bundled scenarios are found from the binary"
