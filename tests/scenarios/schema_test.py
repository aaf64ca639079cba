#!/usr/bin/env python3
"""The JSON Schemas of scenarios/schema/ on real files.

    schema_test.py SOURCE_DIR bundled   every *.toml under scenarios/ matches
                                        exactly one rule of .taplo.toml and
                                        validates against that rule's schema
    schema_test.py SOURCE_DIR refused   hand-written files the schemas must
                                        refuse (each at the field at fault)
                                        and a few they must accept

Files are read with tomllib (Python 3.11) and validated with jsonschema
(Debian's python3-jsonschema; ./setup.sh --tests installs it). Integers are
checked as TOML has them: 2.0 is a float, not an integer, as for the loader.
tests/scenarios/schema_keys_test.cpp holds the schemas' keys to the
loaders' lists; this script holds the bundled files to the schemas.
"""

import json
import re
import sys
import tomllib
from pathlib import Path

try:
    import jsonschema
except ImportError:
    sys.exit("schema_test: the Python module jsonschema is missing; "
             "./setup.sh --tests installs it (python3-jsonschema)")


def glob_regex(pattern):
    """A glob of .taplo.toml as taplo reads it (the globset crate's defaults:
    `*` and `?` also match '/'; `**` as a whole path component matches any
    number of folders, none included)."""
    if "[" in pattern or "{" in pattern:
        raise ValueError(f"glob {pattern!r}: classes and alternatives are "
                         "not supported here; use plain globs")
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i) and (i == 0 or pattern[i - 1] == "/"):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == len(pattern):
            out += "/.*"
            i += 3
        elif pattern[i] == "*":
            out += ".*"
            i += 1
        elif pattern[i] == "?":
            out += "."
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


def toml_validator(schema):
    """A draft-07 validator whose integers are TOML's: not floats, not
    booleans."""
    base = jsonschema.Draft7Validator
    base.check_schema(schema)
    checker = base.TYPE_CHECKER.redefine(
        "integer",
        lambda _, v: isinstance(v, int) and not isinstance(v, bool))
    return jsonschema.validators.extend(base, type_checker=checker)(schema)


def where(error):
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}"
                         for p in error.absolute_path)


def refused_at(error, field):
    """Whether `error`, or one of the alternatives' errors it gathers (oneOf,
    anyOf), refuses the value at `field`. jsonschema reports a `false`
    schema's refusal (a key a condition forbids) at the enclosing table, so
    there the table and the key's name in the path suffice."""
    if where(error) == field:
        return True
    if error.validator is None and field.startswith(where(error) + "."):
        return True
    return any(refused_at(e, field) for e in error.context or [])


class Rules:
    """The [[rule]]s of .taplo.toml: include and exclude globs and a schema
    path, relative to the repository."""

    def __init__(self, root):
        config = tomllib.loads((root / ".taplo.toml").read_text("utf-8"))
        self.rules = []
        for rule in config.get("rule", []):
            path = rule["schema"]["path"]
            schema = json.loads((root / path).read_text("utf-8"))
            self.rules.append({
                "name": rule.get("name", path),
                "include": [glob_regex(g) for g in rule.get("include", ["**"])],
                "exclude": [glob_regex(g) for g in rule.get("exclude", [])],
                "validator": toml_validator(schema),
            })

    def matching(self, relative):
        return [r for r in self.rules
                if any(g.match(relative) for g in r["include"])
                and not any(g.match(relative) for g in r["exclude"])]

    def named(self, name):
        return next(r for r in self.rules if r["name"] == name)


def check_bundled(root, rules):
    failures, counts = [], {}
    files = sorted((root / "scenarios").rglob("*.toml"))
    for path in files:
        relative = path.relative_to(root).as_posix()
        matched = rules.matching(relative)
        if len(matched) != 1:
            names = ", ".join(r["name"] for r in matched) or "none"
            failures.append(f"{relative}: matches {len(matched)} rules of "
                            f".taplo.toml ({names}); expected exactly one")
            continue
        rule = matched[0]
        counts[rule["name"]] = counts.get(rule["name"], 0) + 1
        try:
            document = tomllib.loads(path.read_text("utf-8"))
        except tomllib.TOMLDecodeError as e:
            failures.append(f"{relative}: invalid TOML: {e}")
            continue
        for error in sorted(rule["validator"].iter_errors(document),
                            key=lambda e: list(map(str, e.absolute_path))):
            failures.append(f"{relative}: {where(error)}: {error.message} "
                            f"(schema of rule '{rule['name']}')")
    for failure in failures:
        print(failure)
    if not files:
        failures.append("no bundled files found")
        print(f"schema_test: no *.toml under {root / 'scenarios'}")
    summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
    print(f"schema_test: {len(files)} bundled files ({summary}); "
          f"{len(failures)} problems")
    return not failures


# (what, rule, file, where the schema must refuse it). Each is refused by
# the loader too; the schema must say so at the same field.
REFUSED = [
    ("an unknown top-level key", "scenario",
     'relays = 1\nevents = 1\nrelay_count = 2\n', "$"),
    ("a budget of the wrong type", "scenario",
     'relays = 1\nevents = 1\n[faults]\nrelay_crashes = "two"\n',
     "$.faults.relay_crashes"),
    ("a float where an integer belongs", "scenario",
     'relays = 2.0\nevents = 1\n', "$.relays"),
    ("too many relays", "scenario",
     'relays = 17\nevents = 1\n', "$.relays"),
    ("a budget out of range", "scenario",
     'relays = 1\nevents = 1\n[faults]\nredeliveries = 16\n',
     "$.faults.redeliveries"),
    ("an unknown key in a closed table", "scenario",
     'relays = 1\nevents = 1\n[time]\nleese = "5m"\n', "$.time"),
    ("a misspelt strategy", "scenario",
     'relays = 1\nevents = 1\n[[groups]]\nstrategy = "credit.inbx"\n',
     "$.groups[0].strategy"),
    ("a strategy file table with another key", "scenario",
     'relays = 1\nevents = 1\n[[groups]]\n'
     'strategy = { file = "s.toml", name = "s" }\n',
     "$.groups[0].strategy"),
    ("an event attribute that is neither text nor an integer", "scenario",
     'relays = 1\n[[events]]\nqty = 2.5\n', "$.events[0].qty"),
    ("a malformed duration", "scenario",
     'relays = 1\nevents = 1\n[time]\nlease = "10 min"\n', "$.time.lease"),
    ("a zero duration where one must be longer", "scenario",
     'relays = 1\nevents = 1\n[time]\nlease = "0m"\n', "$.time.lease"),
    ("a sweeper knob without the sweeper", "scenario",
     'relays = 1\nevents = 1\n[relay]\nsend_time = "5s"\n',
     "$.relay.send_time"),
    ("a violated invariant with the verdict 'holds'", "scenario",
     'relays = 1\nevents = 1\n[expect]\nverdict = "holds"\n'
     'violated = "eventually_offered"\n', "$.expect.violated"),
    ("a declared invariant with a built-in's name", "scenario",
     'relays = 1\nevents = 1\n[[invariants]]\nname = "eventually_offered"\n'
     'holds = "true"\n', "$.invariants[0].name"),
    ("a walk weight for a misspelt action class", "scenario",
     'relays = 1\nevents = 1\n[check]\ninvariants = ["eventually_offered"]\n'
     'walk_weights = { crash_rely = 4 }\n', "$.check.walk_weights"),
    ("a walk weight out of range", "scenario",
     'relays = 1\nevents = 1\n[check]\ninvariants = ["eventually_offered"]\n'
     'walk_weights = { claim = 1001 }\n', "$.check.walk_weights.claim"),
    ("a walk weight that is not a whole number", "scenario",
     'relays = 1\nevents = 1\n[check]\ninvariants = ["eventually_offered"]\n'
     'walk_weights = { claim = 2.5 }\n', "$.check.walk_weights.claim"),
    ("a loop without an order", "scenario",
     'relays = 1\nevents = 1\n[check]\ninvariants = ["eventually_offered"]\n'
     'loop = ["claim(r1, e1)"]\n', "$.check"),
    ("an empty loop", "scenario",
     'relays = 1\nevents = 1\n[check]\ninvariants = ["eventually_offered"]\n'
     'order = ["claim(r1, e1)"]\nloop = []\n', "$.check.loop"),
    ("a strategy with five steps", "strategy",
     'name = "s"\nsteps = [["stop"], ["stop"], ["stop"], ["stop"], '
     '["stop"]]\n', "$.steps"),
    ("a declared table with a built-in table's name", "strategy",
     'name = "s"\nsteps = [["insert inbox[event]"]]\n[tables]\n'
     'inbox = { kind = "row", by = "event" }\n', "$.tables"),
    ("an invariant definition of no built-in invariant", "invariant-definition",
     'name = "points_match"\nholds = "true"\n', "$.name"),
]

# Files the schemas must accept, so that REFUSED cannot pass by refusing
# everything: no [expect] (it is optional), attributes of an event's own, a
# strategy file, the age sweeper with its knobs, walk weights.
ACCEPTED = [
    ("a pinned order with a loop", "scenario",
     'relays = 1\nevents = 1\n[check]\ninvariants = ["eventually_offered"]\n'
     'order = ["claim(r1, e1)"]\nloop = ["send(r1)"]\n'),
    ("no [check] and no [expect]", "scenario",
     'relays = ["A", "B"]\nevents = 2\n[[invariants]]\nname = "mine"\n'
     'holds = "all(events, offered[event] <= 1)"\n'),
    ("attributes of an event's own", "scenario",
     'relays = 1\n[[events]]\norder = "o-1"\nqty = 2\n[[groups]]\n'
     'strategy = { file = "s.toml" }\n[check]\n'
     'invariants = ["eventually_offered"]\n[expect]\nverdict = "holds"\n'),
    ("the age sweeper with its knobs", "scenario",
     'relays = 1\nevents = 1\n[relay]\nstyle = "age_sweeper"\n'
     'min_age = "30s"\nsend_time = "10s"\n[time]\npoll = "0s"\n'),
    ("walk weights for some action classes", "scenario",
     'relays = 1\nevents = 1\n[check]\ninvariants = ["eventually_offered"]\n'
     'walk_weights = { crash_relay = 1000, consume = 0 }\n'),
    ("a strategy file with a table of its own", "strategy",
     'name = "s"\nsteps = [["new = insert seen[event.order]"]]\n[tables]\n'
     'seen = { kind = "row", by = "order" }\n'),
]


def check_refused(rules):
    failures = []
    for what, rule_name, text, field in REFUSED:
        errors = list(rules.named(rule_name)["validator"].iter_errors(
            tomllib.loads(text)))
        if not any(refused_at(e, field) for e in errors):
            got = "; ".join(f"{where(e)}: {e.message}" for e in errors)
            failures.append(f"{what}: expected a refusal at {field}, got "
                            f"{got or 'none'}")
    for what, rule_name, text in ACCEPTED:
        for error in rules.named(rule_name)["validator"].iter_errors(
                tomllib.loads(text)):
            failures.append(f"{what}: refused at {where(error)}: "
                            f"{error.message}")
    for failure in failures:
        print(failure)
    print(f"schema_test: {len(REFUSED)} files to refuse, {len(ACCEPTED)} to "
          f"accept; {len(failures)} problems")
    return not failures


def main(argv):
    if len(argv) != 3 or argv[2] not in ("bundled", "refused"):
        sys.exit("usage: schema_test.py SOURCE_DIR bundled|refused")
    root = Path(argv[1])
    rules = Rules(root)
    ok = check_bundled(root, rules) if argv[2] == "bundled" else \
        check_refused(rules)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
