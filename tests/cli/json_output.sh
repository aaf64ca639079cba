#!/usr/bin/env bash
# `check --format json`: standard output is one JSON document and nothing
# else, with one report per scenario given, each the same as the STEM.json
# that --report-dir writes; the exit code is the one text output gives, and
# the document states it. A usage or input error prints no document.
#
# Usage: json_output.sh OUTBOX_CHECK SEED_FOLDER CLI_DATA_FOLDER
set -u
checker=$1 seed=$2 data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Every seed scenario and one whose expectation is wrong: exit 1. With
# GITHUB_ACTIONS set, the annotation must not land on standard output.
GITHUB_ACTIONS=true "$checker" check "$seed" "$data/wrong-expectation.toml" \
  --format json --no-time --report-dir "$work/reports" \
  >"$work/out.json" 2>"$work/err.txt"
code=$?
[ "$code" -eq 1 ] || { cat "$work/err.txt"; fail "exit code $code, not 1"; }
grep -q '^::error file=.*wrong-expectation.toml' "$work/err.txt" ||
  fail "no annotation on standard error"
grep -q 'some scenario differs from its expectation' "$work/err.txt" ||
  fail "the human summary is not on standard error"
expected=$(($(ls "$seed"/*.toml | wc -l) + 1))
python3 - "$work/out.json" "$work/reports" "$expected" <<'PY' || exit 1
import json, os, sys
path, reports, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(path, encoding="utf-8") as f:
    text = f.read()
doc = json.loads(text)  # fails on anything before or after the document
assert doc["schema_version"] == 2, doc["schema_version"]
assert doc["tool"]["name"] == "outbox-check", doc["tool"]
assert doc["tool"]["version"], doc["tool"]
assert doc["exit_code"] == 1, doc["exit_code"]
assert doc["interrupted"] is False
scenarios = doc["scenarios"]
assert len(scenarios) == expected, f"{len(scenarios)} scenarios, not {expected}"
names = [s["scenario"]["name"] for s in scenarios]
assert len(set(names)) == expected, names
outcomes = {s["scenario"]["name"]: s["outcome"] for s in scenarios}
assert outcomes.pop("wrong-expectation") == "unexpected"
assert set(outcomes.values()) == {"ok"}, outcomes
# The same reports as --report-dir writes, one serializer for both.
for s in scenarios:
    assert "timing" not in s, "--no-time left seconds in"
    with open(os.path.join(reports, s["scenario"]["name"] + ".json"),
              encoding="utf-8") as f:
        assert json.load(f) == s, s["scenario"]["name"] + " differs"
print(f"ok: {expected} scenarios in one document")
PY

# An inconclusive search: exit 3, stated in the document.
"$checker" check "$data/depth-limited.toml" --format json >"$work/limit.json" \
  2>/dev/null
code=$?
[ "$code" -eq 3 ] || fail "depth-limited: exit code $code, not 3"
python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["exit_code"] == 3 and doc["scenarios"][0]["outcome"] == "inconclusive"
assert "seconds" in doc["scenarios"][0]["timing"]  # on without --no-time
' "$work/limit.json" || fail "depth-limited document"

# Bad input: exit 2, the message on standard error, nothing on standard
# output.
"$checker" check "$data/negative-budget.toml" --format json \
  >"$work/bad.out" 2>"$work/bad.err"
code=$?
[ "$code" -eq 2 ] || fail "bad input: exit code $code, not 2"
[ ! -s "$work/bad.out" ] || fail "bad input printed on standard output"
grep -q 'negative-budget.toml:5:17' "$work/bad.err" || fail "no message"
echo "ok"
