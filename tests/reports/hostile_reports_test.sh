#!/bin/sh
# Reports of a scenario whose every free-text field holds markup of some
# output format (tests/reports/data/hostile-names.toml): each format must
# show it as text.
#   - HTML (scenario page and index): opened in headless Chromium, no
#     injected script, handler or SVG runs (none sets data-pwned), the page's
#     own self-test still passes, and the names appear as text;
#   - JSON parses, and holds the names unchanged;
#   - JUnit XML parses, and holds the names unchanged;
#   - Markdown has no raw HTML tag from the input, and its Mermaid block
#     has one line per step (no line break or Mermaid directive got in).
#
#   hostile_reports_test.sh OUTBOX_CHECK SCENARIO.toml
#
# Exit codes: 0 passed; 1 failed; 77 skipped (Chromium not installed).
set -u
checker=$1
scenario=$2
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "skipped: chromium not installed ($chromium)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() {
  echo "FAIL: $1"
  status=1
}

"$checker" check "$scenario" --report-dir "$work/out" --no-time >/dev/null ||
  fail "check did not exit 0"

for page in "$work"/out/*.html; do
  name=$(basename "$page")
  "$(dirname "$0")/chromium_dom.sh" "$chromium" "file://$page#selftest" \
    "$work/dom.html" "$work/stderr.txt"
  [ -s "$work/dom.html" ] || fail "$name: Chromium wrote no DOM"
  if grep -q '<html[^>]*data-pwned' "$work/dom.html"; then
    fail "$name: an injected script or handler ran"
  fi
  if grep -E 'CONSOLE|Uncaught' "$work/stderr.txt"; then
    fail "$name: the console shows messages"
  fi
  grep -q "&lt;script&gt;document.documentElement.setAttribute" "$work/dom.html" ||
    fail "$name: the scenario's name is not shown as text"
  if grep -q '<pre id="oc-errors"[^>]*>[^<]' "$work/dom.html"; then
    fail "$name: the page recorded script errors"
  fi
  if [ "$name" != index.html ]; then
    grep -q 'script errors: 0' "$work/dom.html" ||
      fail "$name: the page's self-test did not pass"
  fi
done

python3 - "$work/out" <<'PY' || status=1
import glob, json, os, re, sys
import xml.etree.ElementTree as ET
out = sys.argv[1]
name = "<script>document.documentElement.setAttribute('data-pwned','name')</script>"
inv = "once<script>document.documentElement.setAttribute('data-pwned','inv')</script>"
bad = 0
def fail(msg):
    global bad
    bad = 1
    print("FAIL:", msg)
for path in glob.glob(os.path.join(out, "*.json")):
    doc = json.load(open(path, encoding="utf-8"))
    text = json.dumps(doc, ensure_ascii=False)
    if name not in text or inv not in text:
        fail(f"{os.path.basename(path)}: the names are not kept whole")
tree = ET.parse(os.path.join(out, "junit.xml"))
texts = " ".join(e.get("name", "") + " " + (e.text or "") + " " +
                 " ".join(e.attrib.values()) for e in tree.iter())
if name not in texts:
    fail("junit.xml: the scenario's name is not kept whole")
for path in glob.glob(os.path.join(out, "*.md")):
    md = open(path, encoding="utf-8").read()
    # Outside code spans and fences, no tag from the input may be raw.
    prose = re.sub(r"```.*?```", "", md, flags=re.S)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    for tag in ("<script", "<img", "<svg", "</pre", "<b "):
        if tag in prose:
            fail(f"{os.path.basename(path)}: raw '{tag}' outside code")
    for block in re.findall(r"```mermaid\n(.*?)```", md, flags=re.S):
        lines = block.strip("\n").split("\n")
        if sum(l.strip() == "sequenceDiagram" for l in lines) != 1:
            fail(f"{os.path.basename(path)}: a name added Mermaid lines")
        if any("%%{" in l for l in lines):
            fail(f"{os.path.basename(path)}: a Mermaid directive got in")
sys.exit(bad)
PY
exit $status
