#!/bin/sh
# Renders an HTML report to a PNG with headless Chromium, for docs/CHECKING.md.
#
#   reports/examples/screenshot.sh REPORT.html[#FRAGMENT] OUT.png [WIDTH,HEIGHT]
#
# The window defaults to 1400,1000. A fragment such as "#t1:8" opens the
# step-through of trace t1 at step 8 (see reports/html_report.h). Nothing is fetched from the network: the
# reports are self-contained, and networking features are switched off.
set -eu

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 REPORT.html[#FRAGMENT] OUT.png [WIDTH,HEIGHT]" >&2
  exit 2
fi
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "$0: $chromium not found (apt-get install chromium)" >&2
  exit 2
fi
html=$(realpath "${1%%#*}")
case $1 in
  *'#'*) fragment="#${1#*#}" ;;
  *) fragment= ;;
esac
out=$(realpath -m "$2")
size=${3:-1400,1000}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

"$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
  --no-first-run --disable-background-networking --disable-component-update \
  --disable-sync --user-data-dir="$profile" --hide-scrollbars \
  --window-size="$size" --screenshot="$out" "file://$html$fragment" 2>/dev/null
[ -s "$out" ] || { echo "$0: no screenshot written" >&2; exit 1; }
echo "$out"
