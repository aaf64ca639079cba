#!/usr/bin/env python3
"""Differential test: the independent reference model must agree with the
numbers every bundled scenario pins in its [expect] table.

The C++ checker is held to the same numbers by the CTest suite, so the two
implementations of docs/SEMANTICS.md agree on verdicts, distinct-state counts
and shortest-trace lengths whenever both pass.

Scenarios with declared strategies (strategy = { file = ... }) and their
[[invariants]] expressions are checked like the others: the reference
interprets scenarios/strategies/LANGUAGE.md (reference_language.py).
An exhaustive scenario's check.must_fire is checked too: every listed
action class must fire somewhere in the reference's search.

Scenarios with fault budgets of "any" (scenarios/unbounded/) are searched
in the abstract space of docs/SEMANTICS.md section 14 (their pinned states
count its states) and their at-rest invariants checked as leads-to
properties under weak fairness, with the compassion of saturated counts
(section 15; a lasso's pinned length is its stem's).  A pinned order with
check.loop is replayed as a lasso (the order, then the loop twice; its
at-rest violation pinned at the order's length).  Every other exhaustive scenario's state graph is kept too: it
must have no cycle at all (section 15, "Bounded budgets leave no cycle"),
and the fairness check runs on it regardless.

Usage: check_pinned.py [OPTION] SCENARIO_DIR
       (exit 0 when all agree, 1 otherwise)
  --declared-strategies  every built-in strategy replaced by its declared
                         definition, SCENARIO_DIR/strategies/NAME.toml
  --declared-invariants  every built-in invariant (the ten of
                         docs/SEMANTICS.md section 6 and the three of
                         section 16) replaced by its expression,
                         SCENARIO_DIR/invariants/NAME.toml
  --declared             both; the same pinned numbers are expected
  --show                 also print the reference's own results for each
                         file (states, transitions, terminal states,
                         verdict, violated invariants, the shortest
                         violation's length and its trace): the numbers to
                         pin in a file without [expect]
  SCENARIO_DIR may also be one scenario file.  A file the reference
  refuses to load counts as failed, with the reason.
  A SCENARIO_DIR without strategies/ (invariants/) takes the repository's
  scenarios/strategies/ (scenarios/invariants/), as tests/reference/
  partitioned/ does.
"""
import pathlib
import sys
import tomllib

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import outbox_reference  # noqa: E402


def as_list(value):
    return [value] if isinstance(value, str) else list(value or [])


def show(path, got):
    """The reference's own results for one file (--show)."""
    print("== %s" % path)
    if got.get("mode") == "order":
        print("  pinned order: %d steps, last state terminal: %s, "
              "not enabled: %s" % (got["steps"], got["final_terminal"],
                                   got["not_enabled"]))
        if "loop_steps" in got:
            print("  check.loop: %d steps, replayed twice"
                  % got["loop_steps"])
            for w in got["warnings"]:
                print("  warning: %s" % w)
    else:
        print("  states %d, transitions %d, terminal %d, bounded dead ends "
              "%d, depth %d" % (got["states"], got["transitions"],
                                got["terminal"], got["bounded_dead_ends"],
                                got["depth"]))
    broken = {n: v for n, v in got["violations"].items()
              if v not in ("holds", "inconclusive")}
    for name, v in got["violations"].items():
        print("  %-28s %s" % (name, v))
    print("  verdict: %s" % ("violated" if broken else "holds"))
    if broken:
        shortest = min(broken.values())
        print("  violated: %s" % sorted(broken))
        print("  shortest violation: %d" % shortest)
        traces = got.get("traces", {})
        for name in sorted(broken, key=lambda n: (broken[n], n)):
            if name in traces:
                print("  trace (%s): %s" % (name, ", ".join(traces[name])))
            loop = got.get("loops", {}).get(name)
            if loop:
                print("  loop (%s): %s" % (name, ", ".join(loop)))


def check(path, declared_builtins=None, declared_invariants=None,
          verbose=False):
    with open(path, "rb") as fh:
        cfg = tomllib.load(fh)
    expect, check = cfg.get("expect", {}), cfg.get("check", {})
    try:
        got = outbox_reference.run_file(str(path), declared_builtins,
                                        declared_invariants,
                                        liveness="always")
    except ValueError as exc:
        return ["the reference refuses it: %s" % exc]
    if verbose:
        show(path, got)
    problems = []
    if declared_builtins or declared_invariants:
        # Beyond the pinned numbers: everything the native run reports
        # (counts, transitions, terminal states, depth, violations, traces).
        native = outbox_reference.run_file(str(path), liveness="always")
        for field in sorted(native):
            if native[field] != got.get(field):
                problems.append("declared run differs from the native one "
                                "in %s: %s, native %s"
                                % (field, got.get(field), native[field]))
    if got.get("not_enabled"):
        problems.append("pinned step not enabled: %s" % got["not_enabled"])
    for name, why in sorted(got.get("inconclusive", {}).items()):
        problems.append("%s is inconclusive: %s" % (name, why))
    if got.get("cyclic") and "abstraction" not in got:
        problems.append("the state graph of bounded budgets has a cycle")
    broken = {n: v for n, v in got["violations"].items()
              if v not in ("holds", "inconclusive")}
    wanted = set(as_list(expect.get("violated")))
    if set(broken) != wanted:
        problems.append("violated %s, scenario expects %s"
                        % (sorted(broken), sorted(wanted)))
    if "trace_length" in expect and broken:
        if min(broken.values()) != expect["trace_length"]:
            problems.append("shortest violation %d, scenario pins %d"
                            % (min(broken.values()), expect["trace_length"]))
    if "fired" in got:
        # check.must_fire: every listed action class fired somewhere in the
        # exhaustive search (outbox_reference.py, L12).
        must = as_list(check.get("must_fire"))
        for cls in must:
            if cls not in got["fired"]:
                problems.append("check.must_fire: %s never fired" % cls)
    if "states" in expect and got.get("states") != expect["states"]:
        problems.append("%s distinct states, scenario pins %d"
                        % (got.get("states"), expect["states"]))
    return problems


def definitions_dir(root, name):
    """SCENARIO_DIR/NAME, or the repository's scenarios/NAME when the
    scenario folder has none (tests/reference/partitioned/)."""
    own = root / name
    if own.is_dir():
        return own
    return pathlib.Path(__file__).resolve().parents[2] / "scenarios" / name


def main(argv):
    # --declared: the cross-check of the handler language.  Every scenario
    # runs again with the nine built-in strategies replaced by their
    # declared definitions, SCENARIO_DIR/strategies/NAME.toml, and the
    # thirteen built-in invariants by SCENARIO_DIR/invariants/NAME.toml
    # (definitions_dir), and must give the same pinned numbers.
    # --declared-strategies and --declared-invariants do one replacement
    # each.
    flags = {a for a in argv if a.startswith("--")}
    argv = [a for a in argv if not a.startswith("--")]
    unknown = flags - {"--declared", "--declared-strategies",
                       "--declared-invariants", "--show"}
    if unknown:
        print("unknown option %s" % ", ".join(sorted(unknown)),
              file=sys.stderr)
        return 2
    strategies = flags & {"--declared", "--declared-strategies"}
    invariants = flags & {"--declared", "--declared-invariants"}
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(argv[0])
    # Benchmarks and simulation targets are far too large for the
    # reference model. strategies/ holds strategy files, invariants/
    # invariant definitions, not scenarios.
    if root.is_file():
        files = [root]
        root = root.parent
    else:
        files = sorted(f for f in root.rglob("*.toml")
                       if f.parent.name not in ("bench", "simulation",
                                                "strategies", "invariants"))
    builtins = definitions_dir(root, "strategies") if strategies else None
    definitions = definitions_dir(root, "invariants") if invariants \
        else None
    if strategies:
        print("built-in strategies replaced by %s/NAME.toml" % builtins)
    if invariants:
        print("built-in invariants replaced by %s/NAME.toml" % definitions)
    failed = 0
    for path in files:
        problems = check(path, builtins, definitions,
                         verbose="--show" in flags)
        failed += bool(problems)
        for p in problems:
            print("%s: %s" % (path, p))
    print("%d passed, %d failed" % (len(files) - failed, failed))
    return 1 if failed or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
