#!/usr/bin/env python3
"""Differential test of partial-order reduction on random scenarios.

Generates small untimed scenarios of the seed pipeline (lease_token relays,
built-in strategies and invariants, fault budgets, sometimes no lease or no
fencing) from a fixed seed, and for each runs

  outbox-check check FILE --explore --partial-order on --partial-order-check
               --format json --threads 1 --traces never

and the independent reference model (outbox_reference.py).  Every scenario
must satisfy:

  (a) the checker exits 0 or 1, and 1 exactly when an invariant is violated;
  (b) the partial-order check says "same verdicts" (the reduction applies to
      every untimed seed scenario, so "not compared" fails too);
  (c) the checker's violated invariants equal the reference's;
  (d) each violated invariant's shortest trace has the reference's length;
  (e) the checker's distinct-state count equals the reference's.

The count comes from a first, unreduced run of the checker without symmetry
and stopped past --max-states states: a scenario with a larger state space
is dropped and another drawn in its place (so the reference never meets a
large one), which depends only on the seed.  Generated files have no
[expect] table.

Usage: por_random.py --checker PATH [--seed N] [--count N]
                     [--max-states N] [--keep DIR]
Exit 0 when every scenario agrees, 1 on any failure, 2 on bad usage.
"""
import argparse
import json
import pathlib
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import outbox_reference  # noqa: E402

STRATEGIES = {
    "credit.naive": "credit",
    "credit.inbox": "credit",
    "credit.check_then_act": "credit",
    "credit.effect_then_inbox": "credit",
    "projection.lww": "projection",
    "projection.monotonic": "projection",
    "notification.ledger_then_send": "notification",
    "notification.send_then_ledger": "notification",
    "cache.invalidate": "cache",
}

# Built-in invariants and the strategy family each needs: None for none,
# "any" for at least one consumer group (the loader refuses the others).
INVARIANTS = {
    "effect_at_most_once": "credit",
    "stale_completion_rejected": None,
    "projection_monotonic": "projection",
    "notify_at_most_once": "notification",
    "offered_at_most_once": None,
    "eventually_offered": None,
    "eventually_consumed": "any",
    "projection_converges": "projection",
    "notify_at_least_once": "notification",
    "cache_consistent": "cache",
}

FAULTS = ["premature_expiries", "relay_crashes", "lost_publish_acks",
          "lost_consumer_acks", "consumer_crashes", "redeliveries"]
# Faults that only matter with a consumer group.
CONSUMER_FAULTS = {"lost_consumer_acks", "consumer_crashes", "redeliveries"}

STORED = re.compile(r"(\d+) stored with partial-order reduction, (\d+) without")


def q(text):
    return json.dumps(text)  # a TOML basic string for our plain ASCII


def generate(rng):
    """One random scenario's TOML text."""
    lines = []
    n_relays = rng.choice([1, 1, 2, 2, 2, 3])
    if rng.random() < 0.5:
        lines.append("relays = %d" % n_relays)
    else:
        names = rng.sample(["A", "B", "C", "relay-1", "relay_2", "r.3"],
                           n_relays)
        lines.append("relays = [%s]" % ", ".join(q(n) for n in names))

    n_groups = rng.choice([0, 1, 1, 1, 2])
    strategies = [rng.choice(sorted(STRATEGIES)) for _ in range(n_groups)]
    families = {STRATEGIES[s] for s in strategies}
    needs_key = bool(families & {"projection", "cache"})
    needs_version = "projection" in families

    # Keep the space small: fewer events when there are many relays or
    # groups.
    weight = n_relays + n_groups
    n_events = rng.choice([1, 1, 2] if weight >= 4 else [1, 2, 2, 3])
    if needs_key or rng.random() < 0.5:
        keys = rng.sample(["k1", "k2", "order-7"], rng.choice([1, 2]))
        for i in range(n_events):
            lines.append("")
            lines.append("[[events]]")
            if rng.random() < 0.5:
                lines.append("name = %s" % q("ev-%d" % (i + 1)))
            if rng.random() < 0.6:
                lines.append("type = %s"
                             % q(rng.choice(["credit", "projection", "x"])))
            if needs_key or rng.random() < 0.3:
                lines.append("key = %s" % q(rng.choice(keys)))
            if needs_version or rng.random() < 0.2:
                lines.append("version = %d" % rng.choice([0, 1, 2, 3]))
            if rng.random() < 0.4:
                lines.append("account = %s"
                             % q(rng.choice(["acct-1", "acct-2"])))
            if rng.random() < 0.4:
                lines.append("amount = %d" % rng.choice([-5, 10, 1000]))
            if rng.random() < 0.1:
                lines.append("region = %s" % q("eu"))
    else:
        lines.append("events = %d" % n_events)

    instances = []
    for k, strategy in enumerate(strategies):
        lines.append("")
        lines.append("[[groups]]")
        if rng.random() < 0.5:
            lines.append("name = %s" % q(["billing", "views"][k]))
        lines.append("strategy = %s" % q(strategy))
        n_inst = 1 if n_events >= 3 or weight >= 5 else rng.choice([1, 1, 2])
        instances.append(n_inst)
        if n_inst != 1 or rng.random() < 0.3:
            lines.append("instances = %d" % n_inst)

    lease = rng.random() >= 0.2
    fencing = rng.random() >= 0.25
    if not lease or not fencing or rng.random() < 0.1:
        lines.append("")
        lines.append("[switches]")
        if not lease or rng.random() < 0.3:
            lines.append("lease = %s" % ("true" if lease else "false"))
        if not fencing or rng.random() < 0.3:
            lines.append("fencing = %s" % ("true" if fencing else "false"))

    # A few faults in all, at most two of a kind.
    total = rng.choice([0, 1, 1, 2, 2, 3])
    if weight + n_events >= 6:
        total = min(total, 2)
    pool = [f for f in FAULTS if n_groups or f not in CONSUMER_FAULTS]
    budgets = dict.fromkeys(FAULTS, 0)
    for _ in range(total):
        fault = rng.choice(pool)
        budgets[fault] = min(2, budgets[fault] + 1)
    written = [f for f in FAULTS if budgets[f] or rng.random() < 0.1]
    if written:
        lines.append("")
        lines.append("[faults]")
        for fault in written:
            lines.append("%s = %d" % (fault, budgets[fault]))

    if not lease or rng.random() < 0.15:
        lines.append("")
        lines.append("[bounds]")
        lines.append("claims = %d" % rng.choice([1, 2, 2, 3]))

    applicable = [name for name, need in INVARIANTS.items()
                  if need is None or (need == "any" and n_groups)
                  or need in families]
    chosen = rng.sample(applicable, rng.randint(1, len(applicable)))
    lines.append("")
    lines.append("[check]")
    lines.append("invariants = [%s]" % ", ".join(q(i) for i in chosen))
    return "\n".join(lines) + "\n"


def run_checker(checker, path, extra):
    cmd = [checker, "check", str(path), "--explore", "--format", "json",
           "--threads", "1", "--traces", "never"] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True)
    report = None
    if proc.stdout.strip():
        try:
            report = json.loads(proc.stdout)["scenarios"][0]
        except (ValueError, KeyError, IndexError):
            report = None
    return proc, report


def count_states(checker, path, max_states):
    """The number of distinct states, by an unreduced run of the checker
    without symmetry; None when there are more than max_states.  Raises on
    a file the loader refuses: the generator made it."""
    proc, report = run_checker(
        checker, path, ["--partial-order", "off", "--no-symmetry",
                        "--max-states", str(max_states + 1)])
    if proc.returncode == 2 or report is None:
        raise GeneratorBug(proc.stderr.strip() or "no JSON report")
    stats = report["stats"]
    if stats["stop"] != "complete" or stats["states"] > max_states:
        return None
    return stats["states"]


class GeneratorBug(Exception):
    pass


def compare(checker, path, states):
    """Problems found for one scenario of `states` distinct states (the
    checker's count), and (violated, reduced, unreduced)."""
    problems = []
    proc, report = run_checker(
        checker, path, ["--partial-order", "on", "--partial-order-check"])
    if proc.returncode not in (0, 1) or report is None:
        problems.append("checker exit code %d: %s"
                        % (proc.returncode, proc.stderr.strip()[-400:]))
        return problems, None, 0, 0
    violated = set(report["verdict"]["violated"])
    if proc.returncode != (1 if violated else 0):
        problems.append("checker exit code %d with violated %s"
                        % (proc.returncode, sorted(violated)))

    stats = report["stats"]
    sentence = stats.get("partial_order_check") or ""
    if not sentence.startswith("same verdicts"):
        problems.append("partial-order check: %r" % sentence)
    counts = STORED.search(sentence)
    reduced, unreduced = ((int(counts.group(1)), int(counts.group(2)))
                          if counts else (0, 0))

    ref = outbox_reference.run_file(str(path))
    ref_broken = {n: v for n, v in ref["violations"].items() if v != "holds"}
    if violated != set(ref_broken):
        problems.append("checker violated %s, reference %s"
                        % (sorted(violated), sorted(ref_broken)))
    lengths = {v["invariant"]: v["length"] for v in report["violations"]}
    for name in sorted(violated & set(ref_broken)):
        if lengths.get(name) != ref_broken[name]:
            problems.append("%s: shortest trace %s steps, reference %s"
                            % (name, lengths.get(name), ref_broken[name]))
    if states != ref["states"]:
        problems.append("checker %d distinct states, reference %s"
                        % (states, ref["states"]))
    return problems, violated, reduced, unreduced


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checker", required=True,
                        help="the outbox-check binary")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--max-states", type=int, default=20000,
                        help="redraw scenarios with more distinct states")
    parser.add_argument("--keep", default=None,
                        help="folder for failing scenarios (default: a new "
                             "temporary folder, kept)")
    args = parser.parse_args(argv)

    print("seed %d, %d scenarios" % (args.seed, args.count), flush=True)
    rng = random.Random(args.seed)
    keep = None
    failures = n_violated = n_hold = 0
    reduced_total = unreduced_total = redrawn = 0
    with tempfile.TemporaryDirectory(prefix="por_random_") as work:
        done = 0
        while done < args.count:
            text = generate(rng)
            path = pathlib.Path(work) / ("scenario-%03d.toml" % (done + 1))
            path.write_text(text)
            try:
                states = count_states(args.checker, path, args.max_states)
                if states is None:
                    redrawn += 1
                    continue
                problems, violated, reduced, unreduced = compare(
                    args.checker, path, states)
            except GeneratorBug as bug:
                problems, violated, reduced, unreduced = (
                    ["the loader refuses the generated file: %s" % bug],
                    None, 0, 0)
                print(text, end="")
            done += 1
            n_violated += bool(violated)
            n_hold += violated == set()
            reduced_total += reduced
            unreduced_total += unreduced
            if problems:
                failures += 1
                if keep is None:
                    keep = pathlib.Path(args.keep or tempfile.mkdtemp(
                        prefix="por_random_failures_"))
                    keep.mkdir(parents=True, exist_ok=True)
                saved = keep / path.name
                saved.write_text(text)
                for problem in problems:
                    print("%s: %s" % (saved, problem), flush=True)

    print("%d scenarios: %d violated, %d hold, reduced/unreduced stored "
          "states total %d/%d (%d larger than %d states redrawn)"
          % (args.count, n_violated, n_hold, reduced_total,
             unreduced_total, redrawn, args.max_states))
    if failures:
        print("%d failed; their files are in %s" % (failures, keep))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
