#!/bin/sh
# Opens URL in headless Chromium, lets its scripts run (two seconds of
# virtual time), and writes the DOM after them to DOM and Chromium's log to
# LOG, in a window of SIZE ("1280,900"; Chromium's default when not given).
# Shared by the browser tests of the reports.
#
#   chromium_dom.sh CHROMIUM URL DOM LOG [SIZE]
set -u
chromium=$1 url=$2 dom=$3 log=$4 size=${5:-}
profile=$(mktemp -d)
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
  --no-first-run --disable-background-networking --disable-component-update \
  --disable-sync --user-data-dir="$profile" \
  ${size:+--window-size="$size"} \
  --enable-logging=stderr --v=0 --virtual-time-budget=2000 \
  --dump-dom "$url" >"$dom" 2>"$log"
status=$?
rm -rf "$profile"
exit $status
