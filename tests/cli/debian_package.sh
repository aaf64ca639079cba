#!/usr/bin/env bash
# debian_package.sh BUILD_DIR: cpack builds the .deb from the build folder;
# its control fields name the package, its version, section and a Depends
# that covers every library the binary links; it holds the binary, the
# manual page, the presets and the documentation; and, extracted without
# root into an empty folder, its binary checks a preset and lists presets
# from a working folder outside the checkout, reading the extracted data.
# Exit 77 (skipped) without the Debian tools cpack needs.
set -u
build=$1
fail() { printf '%s\n' "$*"; exit 1; }
for tool in cpack dpkg-deb dpkg-shlibdeps file objdump; do
  command -v "$tool" >/dev/null || {
    echo "skipped: $tool is not installed (./setup.sh --tests installs it)"
    exit 77
  }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" \
  >"$work/cpack.log" 2>&1 || fail "cpack failed: $(cat "$work/cpack.log")"
debs=("$work"/out/outbox-check_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] ||
  fail "cpack wrote no outbox-check_*.deb: $(ls "$work/out")"
deb=${debs[0]}

# Control fields.
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = outbox-check ] || fail "Package is '$(field Package)'"
[ "$(field Section)" = devel ] || fail "Section is '$(field Section)'"
[ -n "$(field Maintainer)" ] || fail "the package has no Maintainer"
[ -n "$(field Description)" ] || fail "the package has no Description"
version=$(field Version)
depends=$(field Depends)
[ -n "$depends" ] || fail "the package has no Depends: $(dpkg-deb --info "$deb")"
# Every library the built binary needs comes from a package Depends names.
depends_names=$(tr ',|' '\n\n' <<<"$depends" | awk '{ print $1 }')
while read -r soname; do
  owners=$(dpkg -S "*/$soname" 2>/dev/null | cut -d: -f1 | sort -u)
  [ -n "$owners" ] || fail "no installed package holds $soname"
  found=false
  for owner in $owners; do
    grep -Fxq "$owner" <<<"$depends_names" && found=true
  done
  $found || fail "Depends names none of $owners, which hold $soname: $depends"
done < <(objdump -p "$build/outbox-check" | awk '$1 == "NEEDED" { print $2 }')

# Contents.
contents=$(dpkg-deb --contents "$deb") || fail "dpkg-deb --contents failed"
for path in usr/bin/outbox-check \
  usr/share/outbox-check/scenarios/presets/kafka-idempotent-producer.retry.toml \
  usr/share/outbox-check/scenarios/schema/scenario.schema.json \
  usr/share/doc/outbox-check/README.md \
  usr/share/doc/outbox-check/docs/SEMANTICS.md; do
  grep -q " \./$path\$" <<<"$contents" || fail "the package lacks /$path"
done
grep -Eq ' \./usr/share/man/man1/outbox-check\.1(\.gz)?$' <<<"$contents" ||
  fail "the package lacks the manual page"

# Extracted without root, run from a folder outside the checkout. A preset
# only the extracted data has shows which data folder the binary reads.
root=$work/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x failed"
bin=$root/usr/bin/outbox-check
data=$root/usr/share/outbox-check/scenarios
cp "$data/presets/broker-loses-write.toml" "$data/presets/only-in-package.toml"
mkdir "$work/elsewhere"
cd "$work/elsewhere" || fail "cannot enter $work/elsewhere"
out=$("$bin" --version 2>&1) || fail "--version failed: $out"
[ "$out" = "outbox-check $version" ] ||
  fail "the binary says '$out', the package's Version is '$version'"
out=$("$bin" check "$data/presets/kafka-idempotent-producer.retry.toml" 2>&1) ||
  fail "the extracted binary's check of a preset exited $?: $out"
grep -q '^all scenarios as expected$' <<<"$out" ||
  fail "check of a preset did not end as expected: $out"
out=$("$bin" list presets 2>&1) || fail "list presets exited $?: $out"
grep -q '^only-in-package ' <<<"$out" ||
  fail "the extracted binary does not list the extracted presets: $out"
echo "the package $(basename "$deb") installs and runs: Depends: $depends"
