#!/usr/bin/env bash
# The SARIF log `check --sarif` writes is valid against the SARIF 2.1.0
# JSON schema, for a run with every kind of result (expected and unexpected
# violations, pinned orders, an inconclusive search, names full of markup).
#
# The schema is not kept in this repository: it is the file
# sarif-2.1.0.json of the npm package @microsoft/sarif-multitool-linux,
# version 5.7.0 (the SARIF SDK's own copy of the 2.1.0 schema, in JSON
# Schema draft 2020-12), fetched once with `npm pack` into CACHE_DIR. The
# validator is Python's jsonschema (Debian: python3-jsonschema). Exits 77
# (skipped) when npm or jsonschema is missing; fails when npm is there but
# cannot fetch the package.
#
# Usage: sarif_schema.sh OUTBOX_CHECK SOURCE_DIR CACHE_DIR
set -u
checker=$1 src=$2 cache=$3
package=@microsoft/sarif-multitool-linux@5.7.0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

python=
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import jsonschema' 2>/dev/null; then
    python=$candidate
    break
  fi
done
[ -n "$python" ] || { echo "skipped: no Python with jsonschema"; exit 77; }

schema=$cache/sarif-2.1.0.json
if [ ! -s "$schema" ]; then
  command -v npm >/dev/null || { echo "skipped: no npm"; exit 77; }
  mkdir -p "$work/pack" "$cache" || exit 1
  (cd "$work/pack" && npm pack --silent "$package" >/dev/null) ||
    fail "npm pack $package failed"
  tar -xzf "$work"/pack/*.tgz -C "$work/pack" package/sarif-2.1.0.json ||
    fail "no sarif-2.1.0.json in $package"
  mv "$work/pack/package/sarif-2.1.0.json" "$schema.tmp" &&
    mv "$schema.tmp" "$schema" || exit 1
fi

"$checker" check "$src/scenarios/seed" "$src/tests/cli/data/wrong-expectation.toml" \
  "$src/tests/cli/data/depth-limited.toml" \
  "$src/tests/reports/data/hostile-names.toml" \
  --traces never --sarif "$work/run.sarif" >"$work/out.txt" 2>&1
code=$?
[ "$code" -eq 1 ] || { cat "$work/out.txt"; fail "exit code $code, not 1"; }

"$python" - "$schema" "$work/run.sarif" <<'PY' || exit 1
import copy, json, sys
import jsonschema

with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
with open(sys.argv[2], encoding="utf-8") as f:
    log = json.load(f)
assert "2.1.0" in schema["title"], schema["title"]
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
validator = cls(schema)
errors = list(validator.iter_errors(log))
for e in errors[:10]:
    print("invalid at", "/".join(map(str, e.absolute_path)), ":", e.message[:300])
assert not errors, f"{len(errors)} schema errors"
results = log["runs"][0]["results"]
levels = {r["level"] for r in results}
assert levels == {"note", "error", "warning"}, levels
assert any("codeFlows" in r for r in results)
# The validator does reject a log that breaks the schema.
broken = copy.deepcopy(log)
broken["runs"][0]["results"][0]["level"] = "fatal"
assert list(validator.iter_errors(broken)), "a bad level passed the schema"
print(f"ok: {len(results)} results valid against {cls.__name__}")
PY
