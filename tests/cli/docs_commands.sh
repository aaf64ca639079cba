#!/bin/sh
# Runs every command the documentation shows and compares the output it
# shows with what the command prints.
#
# Every ```sh block of README.md and docs/*.md is run, unless its first line
# is "# not run by the docs test: REASON" (a block that needs root, apt, a
# PostgreSQL server or an hour); those are counted and listed. A block runs
# with `sh -eu` in a copy of the checkout (so that reports and any other
# files it writes stay out of the real one), with `./build/outbox-check`
# replaced by the binary under test and that binary's folder first on PATH.
# It must exit 0, or the code a "# exit code: N" line in it gives.
#
# A ```text block that follows a ```sh block with only blank lines between
# is that block's standard output. Before comparing, timing figures
# ("0.04 s", "12ms") become "T"; a line "..." in the text block stands for
# any number of lines.
#
# Every ```mermaid block must appear, line for line, in one of the example
# reports of reports/examples/ (whose own test keeps them current), and the
# README's main command must leave its reports where the README says.
#
# Usage: docs_commands.sh OUTBOX_CHECK (from the project's root)
set -eu
case $1 in
  /*) checker=$1 ;;
  *) checker=$(pwd)/$1 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/blocks" "$work/checkout"
tar cf - --exclude='./build*' --exclude=./.git --exclude=./outbox-reports . |
  (cd "$work/checkout" && tar xf -)

# Cut each fenced block out of the pages: N.sh, N.text (its output, if
# shown), N.mermaid, and N.where (page:line of the block's fence).
awk -v dir="$work/blocks" '
  FNR == 1 { fence = ""; pending = 0 }
  fence == "" && /^```/ {
    lang = substr($0, 4)
    if (lang == "text" && pending) {
      fence = "text"; out = dir "/" n ".text"; printf "" > out; next
    }
    pending = 0
    if (lang == "sh" || lang == "mermaid") {
      n++; fence = lang; out = dir "/" n "." lang; printf "" > out
      print FILENAME ":" FNR > (dir "/" n ".where"); close(dir "/" n ".where")
      next
    }
    fence = "other"; next
  }
  fence != "" && $0 == "```" {
    if (fence == "sh") pending = 1
    if (fence != "other") close(out)
    fence = ""; next
  }
  fence == "sh" || fence == "text" || fence == "mermaid" { print > out; next }
  fence == "" && /[^ \t]/ { pending = 0 }
' README.md docs/*.md

# match EXPECTED ACTUAL: each line equal, "..." any run of lines.
match() {
  awk '
    NR == FNR { e[++ne] = $0; next }
    { a[++na] = $0 }
    END {
      i = 1; j = 1
      while (i <= ne) {
        if (e[i] != "...") {
          if (j > na || a[j] != e[i]) {
            printf "line %d: expected \"%s\", got \"%s\"\n", j, e[i], (j > na ? "(end)" : a[j])
            exit 1
          }
          i++; j++; continue
        }
        i++
        if (i > ne) { j = na + 1; break }
        k = i; while (k <= ne && e[k] != "...") k++
        len = k - i; found = 0
        for (s = j; s + len - 1 <= na; s++) {
          if (k > ne && s + len - 1 != na) continue
          ok = 1
          for (t = 0; t < len; t++) if (a[s + t] != e[i + t]) { ok = 0; break }
          if (ok) { found = 1; break }
        }
        if (!found) { printf "no lines from line %d on match \"%s\"\n", j, e[i]; exit 1 }
        j = s + len; i = k
      }
      if (j <= na) { printf "line %d: unexpected \"%s\"\n", j, a[j]; exit 1 }
    }
  ' "$1" "$2"
}

untime() {
  sed -E 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/T/g' "$1"
}

ran=0 skipped=0 compared=0 diagrams=0 failed=0
for block in $(ls "$work/blocks" | sed -n 's/\.where$//p' | sort -n); do
  where=$(cat "$work/blocks/$block.where")
  if [ -f "$work/blocks/$block.mermaid" ]; then
    found=no
    for report in reports/examples/*.md; do
      { echo ...; cat "$work/blocks/$block.mermaid"; echo ...; } >"$work/want"
      if match "$work/want" "$report" >/dev/null; then found=yes; break; fi
    done
    if [ $found = no ]; then
      echo "$where: this diagram is in no report of reports/examples/" >&2
      failed=$((failed + 1))
    fi
    diagrams=$((diagrams + 1))
    continue
  fi
  script=$work/blocks/$block.sh
  reason=$(sed -n '1s/^# not run by the docs test: //p' "$script")
  if [ -n "$reason" ]; then
    echo "skipped $where: $reason"
    skipped=$((skipped + 1))
    continue
  fi
  want_code=$(sed -n 's/^# exit code: \([0-9][0-9]*\)$/\1/p' "$script")
  sed "s#\./build/outbox-check#$checker#g" "$script" >"$work/run.sh"
  code=0
  (cd "$work/checkout" && PATH=$(dirname "$checker"):$PATH sh -eu "$work/run.sh") \
    >"$work/out" 2>"$work/err" || code=$?
  ran=$((ran + 1))
  if [ "$code" != "${want_code:-0}" ]; then
    echo "$where: exit code $code, not ${want_code:-0}:" >&2
    cat "$script" "$work/err" >&2
    failed=$((failed + 1))
    continue
  fi
  if [ -f "$work/blocks/$block.text" ]; then
    untime "$work/blocks/$block.text" >"$work/want"
    untime "$work/out" >"$work/got"
    if ! match "$work/want" "$work/got" >"$work/why"; then
      echo "$where: the output differs from the page's: $(cat "$work/why")" >&2
      failed=$((failed + 1))
    fi
    compared=$((compared + 1))
  fi
  echo "ran $where"
done

# The README says where its main command writes the reports.
for f in index.html index.md junit.xml lease-expiry-after-send.html; do
  if [ ! -f "$work/checkout/outbox-reports/$f" ]; then
    echo "README.md: its command left no outbox-reports/$f" >&2
    failed=$((failed + 1))
  fi
done

echo "$ran blocks run ($compared outputs compared), $skipped skipped, $diagrams diagrams found in reports/examples/"
[ "$ran" -gt 0 ] && [ "$compared" -gt 0 ] && [ "$failed" -eq 0 ]
