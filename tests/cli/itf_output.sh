#!/usr/bin/env bash
# `check --itf DIR`: one ITF trace (Apalache's Informal Trace Format) per
# counterexample, pinned orders' included, each valid JSON with the trace's
# steps + 1 states, every state holding exactly the variables `vars` lists,
# each variable an ITF integer ({"#bigint": "N"}) in every state or a
# string in every state; the states and actions are those the JSON report
# of the same run gives for that violation. Invariants named like paths
# still give files inside DIR.
#
# Usage: itf_output.sh OUTBOX_CHECK SOURCE_DIR
set -u
checker=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$work/scenarios" "$work/out/itf" "$work/out/sibling"
cp "$src"/scenarios/seed/*.toml "$work/scenarios/"
# Two declared invariants whose names look like paths, both violated.
cat >"$work/scenarios/hostile-invariants.toml" <<'TOML'
relays = ["A"]
events = 1

[[groups]]
name = "billing"
strategy = "credit.naive"

[faults]
lost_consumer_acks = 1

[[invariants]]
name = "../../escaped"
holds = "all(events, billing.effects[event] <= 1)"

[[invariants]]
name = "/tmp/abs/olute"
kind = "at_rest"
holds = "all(events, billing.effects[event] <= 1)"

[expect]
verdict = "violated"
violated = ["../../escaped", "/tmp/abs/olute"]
TOML

cd "$work/out/itf" || exit 1
"$checker" check "$work/scenarios" --traces never --no-time --format json \
  --itf "$work/out/itf" >"$work/run.json" 2>"$work/err.txt"
code=$?
[ "$code" -eq 0 ] || { cat "$work/err.txt"; fail "exit code $code, not 0"; }
cd "$work" || exit 1
[ -z "$(find "$work/out/sibling" -mindepth 1)" ] &&
  ! ls -d /tmp/abs/olute* >/dev/null 2>&1 ||
  fail "a file outside the --itf folder"
[ -z "$(find "$work" -name 'escaped*' -o -name 'olute*')" ] ||
  fail "a file named from the invariant outside the folder"
grep -q "ITF trace written to $work/out/itf/" "$work/err.txt" ||
  fail "no line saying what was written"

python3 - "$work/run.json" "$work/out/itf" <<'PY' || exit 1
import json, os, re, sys
run = json.load(open(sys.argv[1], encoding="utf-8"))
folder = sys.argv[2]
files = sorted(os.listdir(folder))
assert all(re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.itf\.json", f)
           for f in files), files
assert all(os.path.isfile(os.path.join(folder, f)) for f in files)

# What the JSON reports say, per (scenario, invariant).
wanted = {}
for report in run["scenarios"]:
    for v in report["violations"]:
        wanted[(report["scenario"]["name"], v["invariant"])] = v
assert len(wanted) == len(files), (len(wanted), len(files))
assert ("hostile-invariants", "../../escaped") in wanted
assert any(r["scenario"]["search"] == "pinned" and r["violations"]
           for r in run["scenarios"]), "no pinned violation in the run"

def text_of(value):
    if isinstance(value, dict):
        assert list(value) == ["#bigint"], value
        assert re.fullmatch(r"-?[0-9]+", value["#bigint"]), value
        return value["#bigint"]
    assert isinstance(value, str), value
    return value

seen = set()
for name in files:
    with open(os.path.join(folder, name), encoding="utf-8") as f:
        trace = json.load(f)
    meta = trace["#meta"]
    assert meta["format"] == "ITF" and meta["format-description"].startswith("https://")
    key = (meta["scenario"], meta["invariant"])
    assert key in wanted and key not in seen, key
    seen.add(key)
    v = wanted[key]
    steps = v["steps"]
    assert meta["length"] == len(steps) == v["length"]
    states = trace["states"]
    assert len(states) == len(steps) + 1, (name, len(states), len(steps))
    names = trace["vars"]
    assert len(set(names)) == len(names) and names, names
    kinds = {}
    for i, state in enumerate(states):
        assert state["#meta"]["index"] == i
        assert list(state) == ["#meta"] + names, (name, i)
        expected = v["initial_state"] if i == 0 else steps[i - 1]["state"]
        assert list(expected) == names, (name, i)
        for var in names:
            kind = isinstance(state[var], dict)
            assert kinds.setdefault(var, kind) == kind, (name, var)
            assert text_of(state[var]) == expected[var], (name, i, var)
        if i > 0:
            assert state["#meta"]["action"] == steps[i - 1]["action"]["text"]
            assert state["#meta"]["detail"] == steps[i - 1]["detail"]
            assert state["#meta"]["step"]
    assert any(kinds.values()) and not all(kinds.values()), kinds
print(f"ok: {len(files)} ITF traces")
PY
