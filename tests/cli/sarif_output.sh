#!/usr/bin/env bash
# `check --sarif FILE`: what the SARIF log says, checked field by field
# (tests/cli/sarif_schema.sh validates it against the SARIF 2.1.0 schema).
# One result per violation (an expected one a note, any other an error, at
# the line naming the invariant, with the counterexample as a code flow of
# one location per step) and one per unexpected (error) or inconclusive
# (warning) outcome at the [expect] table; every ruleId among the rules,
# the tool's own rule ids kept apart from an invariant of the same name;
# file locations as relative, percent-encoded URIs.
#
# Usage: sarif_output.sh OUTBOX_CHECK SOURCE_DIR
set -u
checker=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The scenarios, in a folder whose name needs percent-encoding.
dir="dir with space#1"
mkdir -p "$work/$dir"
cp "$src/scenarios/seed/lease-expiry-after-send.toml" \
  "$src/scenarios/seed/1-send-crash-resend.naive.order.toml" \
  "$src/tests/cli/data/wrong-expectation.toml" \
  "$src/tests/cli/data/depth-limited.toml" "$work/$dir/"
# A wrong state count, which no invariant explains; and an invariant named
# like the tool's rule for that, violated though expected to hold.
sed 's/^states = 95$/states = 94/' "$src/scenarios/seed/lease-expiry-after-send.toml" |
  sed 's/^name = "lease-expiry-after-send"$/name = "wrong-count"/' \
    >"$work/$dir/wrong-count.toml"
grep -q '^states = 94$' "$work/$dir/wrong-count.toml" || fail "sed did not apply"
cat >"$work/$dir/named-like-a-rule.toml" <<'TOML'
relays = ["A"]
events = 1

[[groups]]
name = "billing"
strategy = "credit.naive"

[faults]
lost_consumer_acks = 1

[[invariants]]
name = "outbox-check/expectation"
holds = "all(events, billing.effects[event] <= 1)"

[expect]
verdict = "holds"
TOML

cd "$work" || exit 1
"$checker" check "$dir" --traces never --sarif out/run.sarif \
  >"$work/stdout.txt" 2>&1
code=$?
[ "$code" -eq 1 ] || { cat "$work/stdout.txt"; fail "exit code $code, not 1"; }
grep -q "SARIF log written to out/run.sarif" "$work/stdout.txt" ||
  fail "no line saying where the log is"

python3 - "$work/out/run.sarif" "$dir" <<'PY' || exit 1
import json, sys, urllib.parse
log_path, folder = sys.argv[1], sys.argv[2]
log = json.load(open(log_path, encoding="utf-8"))
assert log["version"] == "2.1.0"
assert log["$schema"].endswith("sarif-2.1.0.json"), log["$schema"]
(run,) = log["runs"]
driver = run["tool"]["driver"]
assert driver["name"] == "outbox-check" and driver["version"]
rule_ids = [r["id"] for r in driver["rules"]]
assert len(rule_ids) == len(set(rule_ids)), rule_ids
for name in ("effect_at_most_once", "outbox-check/expectation",
             "outbox-check/expectation-2", "outbox-check/inconclusive"):
    assert name in rule_ids, (name, rule_ids)
assert run["invocations"][0]["exitCode"] == 1

def uri_of(name):
    return urllib.parse.quote(f"{folder}/{name}.toml", safe="/")

def lines(name):
    with open(f"{folder}/{name}.toml", encoding="utf-8") as f:
        return f.read().split("\n")

def line_of(name, needle, after=None):
    text = lines(name)
    start = text.index(after) if after else 0
    for i in range(start, len(text)):
        if needle in text[i]:
            return i + 1
    raise AssertionError(f"{needle} not in {name}")

by_scenario = {}
for r in run["results"]:
    assert rule_ids[r["ruleIndex"]] == r["ruleId"], r["ruleId"]
    (loc,) = r["locations"]
    phys = loc["physicalLocation"]
    by_scenario.setdefault(r["properties"]["scenario"], []).append(r)
    r["_uri"] = phys["artifactLocation"]["uri"]
    r["_line"] = phys["region"]["startLine"]

def steps_of(r):
    (flow,) = r["codeFlows"]
    (thread,) = flow["threadFlows"]
    return thread["locations"]

def check_steps(r, n, file, order_lines=None):
    steps = steps_of(r)
    assert len(steps) == n, (len(steps), n)
    for i, step in enumerate(steps):
        loc = step["location"]
        text = loc["message"]["text"]
        assert text.startswith(f"Step {i + 1} of {n}: "), text
        assert loc["physicalLocation"]["artifactLocation"]["uri"] == uri_of(file)
        line = loc["physicalLocation"]["region"]["startLine"]
        if order_lines:
            assert line == order_lines[i], (i, line, order_lines[i])
        assert step["executionOrder"] == i + 1

# An expected violation: one note at the check.invariants line, 8 steps.
(r,) = by_scenario["lease-expiry-after-send"]
assert (r["ruleId"], r["level"]) == ("effect_at_most_once", "note"), r
assert r["_uri"] == uri_of("lease-expiry-after-send"), r["_uri"]
assert r["_line"] == line_of("lease-expiry-after-send", '"effect_at_most_once"',
                             "[check]")
check_steps(r, 8, "lease-expiry-after-send")
assert "claim(A, e1)" in steps_of(r)[0]["location"]["message"]["text"]
assert steps_of(r)[0]["state"]["outbox[e1].owner"] == {"text": "A"}

# A violation the scenario does not expect: an error at the invariant, and
# the unexpected outcome, an error at [expect] with the same trace.
violation, outcome = by_scenario["wrong-expectation"]
assert (violation["ruleId"], violation["level"]) == ("effect_at_most_once", "error")
assert violation["_line"] == line_of("wrong-expectation", '"effect_at_most_once"')
check_steps(violation, 5, "wrong-expectation")
assert (outcome["ruleId"], outcome["level"]) == ("effect_at_most_once", "error")
assert outcome["_line"] == line_of("wrong-expectation", "[expect]")
assert "expects it to hold" in outcome["message"]["text"], outcome["message"]
check_steps(outcome, 5, "wrong-expectation")

# A pinned order: each step at its element of check.order.
(r,) = by_scenario["send-crash-resend.naive.order"]
assert (r["ruleId"], r["level"]) == ("effect_at_most_once", "note")
name = "1-send-crash-resend.naive.order"
first = line_of(name, '"claim(A, e1)"')
order = [first] * 4 + [first + 1] * 3 + [first + 2] * 2 + [first + 3]
check_steps(r, 10, name, order)

# An inconclusive search: one warning at [expect], no code flow.
(r,) = by_scenario["depth-limited"]
assert (r["ruleId"], r["level"]) == ("outbox-check/inconclusive", "warning")
assert r["_line"] == line_of("depth-limited", "[expect]")
assert "codeFlows" not in r

# A wrong state count: the tool's rule, renamed past the invariant that
# took its name; that invariant's own violation keeps its name.
note, outcome = by_scenario["wrong-count"]
assert note["level"] == "note"
assert (outcome["ruleId"], outcome["level"]) == ("outbox-check/expectation-2", "error")
assert "95 distinct states; expected 94" in outcome["message"]["text"]
violation, outcome = by_scenario["named-like-a-rule"]
assert (violation["ruleId"], violation["level"]) == ("outbox-check/expectation", "error")
assert violation["_line"] == line_of("named-like-a-rule", 'name = "outbox-check')
assert outcome["ruleId"] == "outbox-check/expectation"

assert set(by_scenario) == {"lease-expiry-after-send", "wrong-expectation",
                            "send-crash-resend.naive.order", "depth-limited",
                            "wrong-count", "named-like-a-rule"}, set(by_scenario)
assert len(run["results"]) == 9, len(run["results"])
print("ok: 9 results, as expected")
PY
