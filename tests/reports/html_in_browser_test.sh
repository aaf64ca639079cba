#!/bin/sh
# The HTML report in a real browser: writes the report of one scenario with
# html_report_fixture, opens it in headless Chromium with "#selftest" (the
# page's own check, see reports/html_report.h) and checks the DOM after the
# script ran:
#   1. the diagram has one arrow per message step and one note per note step;
#   2. "next" and the Right arrow key move the cursor and change the state
#      panel and the highlighted row, and a link "#t1:3" opens step 3;
#   3. no script error, neither caught by the page nor logged by Chromium;
#   4. with ARROWS and NOTES, the first trace's diagram has that many (the
#      lease-expiry-after-send trace: 7 and 1);
#   5. with "ticks", some trace draws a run of ticks as one row, which
#      "next" crosses in one move and "into" enters;
#   6. with "loop", the first trace is a lasso, and "next" at its loop's
#      last step goes back to the loop's first.
#
#   html_in_browser_test.sh HTML_REPORT_FIXTURE SCENARIO.toml [ARROWS NOTES [ticks|loop]]
#
# Exit codes: 0 passed; 1 failed; 77 skipped (Chromium not installed).
set -u

fixture=$1
scenario=$2
want_arrows=${3:-}
want_notes=${4:-}
want_ticks=${5:-}
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "skipped: chromium not installed ($chromium)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
page=$work/report.html
"$fixture" "$scenario" "$page" || { echo "FAIL: fixture could not write $page"; exit 1; }

"$(dirname "$0")/chromium_dom.sh" "$chromium" "file://$page#selftest" \
  "$work/dom.html" "$work/stderr.txt"

status=0
fail() {
  echo "FAIL: $1"
  status=1
}

# The self-test's lines, from <pre id="oc-selftest" ...>...</pre>.
selftest=$(awk '/<pre id="oc-selftest"/ { on = 1 } on { print } on && /<\/pre>/ { exit }' \
  "$work/dom.html" | sed 's/<[^>]*>//g')
if [ -z "$selftest" ]; then
  fail "the self-test did not run (did the script stop early?)"
else
  echo "$selftest"
  echo "$selftest" | grep -q 'trace t1: arrows [0-9]*/[0-9]*, notes [0-9]*/[0-9]*: ok' ||
    fail "the diagram's arrows and notes do not match its steps"
  echo "$selftest" | grep -q 'next changes the state panel: ok' ||
    fail "'next' did not change the state panel"
  echo "$selftest" | grep -q 'arrow key moves the highlighted row: ok' ||
    fail "the Right arrow key did not move the highlighted row"
  echo "$selftest" | grep -q 'a link to a step opens it: ok' ||
    fail "the fragment #t1:3 did not open step 3"
  echo "$selftest" | grep -q 'script errors: 0' || fail "the page caught script errors"
  if [ "$want_ticks" = ticks ]; then
    echo "$selftest" | grep -q 'next crosses a run of ticks, into enters it: ok' ||
      fail "no run of ticks was drawn as one row, or next and into did not move over and into it"
  fi
  if [ "$want_ticks" = loop ]; then
    echo "$selftest" | grep -q 'trace t1: next after the loop goes back to its first step: ok' ||
      fail "next at the end of the lasso's loop did not go back to the loop's first step"
  fi
  if echo "$selftest" | grep -q 'FAILED'; then fail "a self-test line failed"; fi
fi

# Independently of the self-test: the DOM after the script ran has the
# arrows and notes of the first trace and a filled state panel.
if [ -n "$want_arrows" ]; then
  first=$(awk '/<section class="trace"/ { n++ } n == 1 { print }' "$work/dom.html")
  arrows=$(echo "$first" | grep -o '<g class="message' | wc -l)
  notes=$(echo "$first" | grep -o '<g class="note"' | wc -l)
  [ "$arrows" -eq "$want_arrows" ] ||
    fail "expected $want_arrows arrows in the DOM, found $arrows"
  [ "$notes" -eq "$want_notes" ] ||
    fail "expected $want_notes notes in the DOM, found $notes"
fi
grep -q '<td>outbox\[e1\]\.[a-z_]*</td>' "$work/dom.html" ||
  fail "the state panel has no cells"

# Errors the page could not catch (a syntax error stops its script before it
# installs its handler) show in Chromium's log as console lines. The page
# itself never writes to the console, so any console line is a failure.
if grep -E 'CONSOLE|Uncaught' "$work/stderr.txt"; then
  fail "the console shows messages"
fi
if grep -q '<pre id="oc-errors"[^>]*>[^<]' "$work/dom.html"; then
  fail "the page recorded script errors:"
  awk '/<pre id="oc-errors"/ { on = 1 } on { print } on && /<\/pre>/ { exit }' \
    "$work/dom.html" | sed 's/<[^>]*>//g'
fi

if [ "$status" -ne 0 ]; then
  echo "--- chromium stderr (without its D-Bus noise):"
  grep -v 'dbus' "$work/stderr.txt"
fi
exit $status
