#!/bin/sh
# The HTML report's layout at common screen widths, in headless Chromium:
# for a narrow diagram (four lifelines) and a wide one (ten), at 1280 and
# 1920 pixels, the page's self-test must find the state panel beside the
# diagram with its top in view, no label of the diagram running past its
# edge, and the "changed cells only" toggle showing just the changed cells.
#
#   html_layout_test.sh HTML_REPORT_FIXTURE DATA_DIR
#
# Exit codes: 0 passed; 1 failed; 77 skipped (Chromium not installed).
set -u
fixture=$1
data=$2
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "skipped: chromium not installed ($chromium)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for scenario in four-lifelines ten-lifelines; do
  page=$work/$scenario.html
  "$fixture" "$data/$scenario.toml" "$page" ||
    { echo "FAIL: fixture could not write $page"; exit 1; }
  for size in 1280,900 1920,1080; do
    "$(dirname "$0")/chromium_dom.sh" "$chromium" "file://$page#selftest" \
      "$work/dom.html" "$work/stderr.txt" "$size"
    selftest=$(awk '/<pre id="oc-selftest"/ { on = 1 } on { print } on && /<\/pre>/ { exit }' \
      "$work/dom.html" | sed 's/<[^>]*>//g')
    for want in 'state panel beside the diagram: ok' 'no label cut off: ok' \
        'changed cells only: ok' 'script errors: 0'; do
      if ! echo "$selftest" | grep -q "$want"; then
        echo "FAIL: $scenario at $size: no '$want' in the self-test:"
        echo "$selftest"
        status=1
      fi
    done
    if echo "$selftest" | grep -q FAILED; then
      echo "FAIL: $scenario at $size:"
      echo "$selftest" | grep FAILED
      status=1
    fi
  done
done
[ "$status" -eq 0 ] && echo "layout ok at 1280 and 1920 pixels, 4 and 10 lifelines"
exit $status
