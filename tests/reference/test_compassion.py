#!/usr/bin/env python3
"""Unit checks of the compassion refinement of the reference model's
fairness routine (fair_components.py; docs/SEMANTICS.md section 15,
"Saturated counts and compassion", and outbox_reference.py, U8) on small
graphs solved by hand, then against a brute force over every set of
transitions on random graphs.  Standard library only:

    python3 tests/reference/test_compassion.py

A graph is written as a list of transitions (source, action, target,
*tags): a tag "fault" marks a fault, "take:c" a transition that takes a
copy from the saturated count c while it is at the cap (2, "2 or more"),
"add:c" one that adds a copy to c.  State 0 is the initial state; `bad`
lists the states where the property P fails.  The requirement of each
count c: a run that takes from c at the cap infinitely often adds to c
infinitely often.  A property is violated when some reachable set of bad
states and non-fault transitions between them is strongly connected,
non-trivial, meets every count's requirement and is weakly fair (every
non-fault action enabled in all of its states is taken by one of its
transitions); the stem is the shortest path (over every transition) from
state 0 to a state of one.

In the outbox model: consume(g, i, e) takes from ready[g][e]; send adds
to it (and to offered[e]); ack_lost, crash_consumer and redeliver add to
it but are faults; lose_write takes from both but is a fault.
"""
import itertools
import pathlib
import random
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import fair_components as fc  # noqa: E402
import test_fairness  # noqa: E402


def graph(n, transitions):
    """(edges, counts) of fair_components.py."""
    edges = [[] for _ in range(n)]
    counts = [[] for _ in range(n)]
    for tr in transitions:
        s, act, t = tr[:3]
        tags = tr[3:]
        edges[s].append((act, t, "fault" in tags))
        counts[s].append((
            frozenset(x[5:] for x in tags if x.startswith("take:")),
            frozenset(x[4:] for x in tags if x.startswith("add:"))))
    return edges, counts


def badness(n, bad):
    return [s in bad for s in range(n)]


class HandSolved(unittest.TestCase):
    def verdict(self, n, transitions, bad, stem=None, component=None,
                weak_only=None):
        """stem None: P holds; otherwise the stem's length and the
        component (after refinement) the lasso loops in.  weak_only: the
        verdict without compassion (plain weak fairness), as a stem
        length or None, to show what compassion changes."""
        edges, counts = graph(n, transitions)
        b = badness(n, bad)
        lasso = fc.find_fair_lasso(edges, b, 0, counts)
        plain = fc.find_fair_lasso(edges, b, 0)
        self.assertEqual(None if plain is None else len(plain["stem"]),
                         weak_only)
        self.assertEqual(brute_force(edges, b, counts), stem)
        if stem is None:
            self.assertIsNone(lasso)
            return
        self.assertIsNotNone(lasso)
        self.assertEqual(len(lasso["stem"]), stem)
        self.assertEqual(lasso["component"], sorted(component))
        here = lasso["stem"][-1][2] if lasso["stem"] else 0
        self.assertIn(here, component)
        # the loop is a fair closed walk inside the component that meets
        # every count's requirement
        self.assertTrue(fc.loop_is_fair(edges, b, here, lasso["loop"],
                                        counts))
        self.assertTrue(all(s in component for s, _, _ in lasso["loop"]))
        return lasso

    def test_01_taking_for_ever_with_no_adder(self):
        # The spurious abstract run of section 15: one consumer instance
        # with ready[e1] at 2; 0 (idle) -consume(e1), take:r1-> 1
        # (holding) -ack-> 0, and consume(e2) leads from 0 only to the
        # good state 2.  consume(e2) is disabled in 1, so weak fairness
        # alone accepts the cycle (violated, stem 0).  But it takes from
        # r1 at the cap and nothing in it adds to r1: the consume edge is
        # removed, {0} and {1} are trivial: holds.
        self.verdict(3, [(0, "consume(e1)", 1, "take:r1"), (1, "ack", 0),
                         (0, "consume(e2)", 2)], {0, 1},
                     weak_only=0)

    def test_02_adder_inside_the_cycle(self):
        # As 01, but the cycle goes on through 2 where a relay sends e1
        # again (add:r1): 0 -consume(e1)-> 1 -ack-> 2 -send-> 0.  The
        # component gives what it asks: no refinement; consume(e2) (from
        # 0 to good 3) is not enabled in 1 and 2: fair, violated, stem 0,
        # and the loop must take send.
        lasso = self.verdict(
            4, [(0, "consume(e1)", 1, "take:r1"), (1, "ack", 2),
                (2, "send", 0, "add:r1"), (0, "consume(e2)", 3)],
            {0, 1, 2}, stem=0, component={0, 1, 2}, weak_only=0)
        self.assertIn("send", [a for _s, a, _t in lasso["loop"]])

    def test_03_adder_only_on_the_stem(self):
        # 0 -send, add:r1-> 1; then 1 -consume, take:r1-> 2 -ack-> 1.
        # The adder is outside the component {1, 2} (on the way in), so
        # the component asks r1 and never gives it: the consume edge goes
        # and nothing non-trivial is left: holds.  (Weak fairness alone:
        # violated, stem 1.)
        self.verdict(3, [(0, "send", 1, "add:r1"),
                         (1, "consume", 2, "take:r1"), (2, "ack", 1)],
                     {0, 1, 2}, weak_only=1)

    def test_04_adder_is_a_fault(self):
        # 0 -consume, take:r1-> 1 -ack-> 0 and 1 -ack_lost(fault),
        # add:r1-> 0.  Faults are not in the subgraph (a fair run takes
        # finitely many), so the fault's copy does not pay for the takes:
        # after the refinement only 1 -ack-> 0 is left: holds.
        self.verdict(2, [(0, "consume", 1, "take:r1"), (1, "ack", 0),
                         (1, "ack_lost", 0, "fault", "add:r1")], {0, 1},
                     weak_only=0)

    def test_05_two_rounds(self):
        # {0, 1, 2}: 0 -a, take:c-> 1 -b, add:d-> 0, 1 -y-> 2 -z,
        # take:d-> 1.  Round 1: it asks {c, d} and gives {d}: the take of
        # c goes, leaving b (1 -> 0), y, z: components {0} and {1, 2}.
        # Round 2: {1, 2} asks d (z) and gives nothing (b leaves it):
        # z goes, {1} and {2} are trivial: holds.  Stopping after round
        # 1 would keep {1, 2} (nothing enabled in both 1 and 2: weakly
        # fair) and report a violation.
        self.verdict(3, [(0, "a", 1, "take:c"), (1, "b", 0, "add:d"),
                         (1, "y", 2), (2, "z", 1, "take:d")], {0, 1, 2},
                     weak_only=0)

    def test_06_two_counts_paying_each_other(self):
        # {0, 1, 2}: 0 -tc, take:c-> 1 -ad, add:d-> 0 and 1 -td,
        # take:d-> 2 -ac, add:c-> 1.  It asks {c, d} and gives {c, d}: no
        # refinement; nothing is enabled in all three states: fair,
        # violated, stem 0.  The loop must take both adders: from 0 it
        # takes tc, then td and ac (to pay for c), then ad (to pay for d
        # and to come back).
        lasso = self.verdict(
            3, [(0, "tc", 1, "take:c"), (1, "ad", 0, "add:d"),
                (1, "td", 2, "take:d"), (2, "ac", 1, "add:c")],
            {0, 1, 2}, stem=0, component={0, 1, 2}, weak_only=0)
        acts = [a for _s, a, _t in lasso["loop"]]
        self.assertIn("ac", acts)
        self.assertIn("ad", acts)

    def test_07_refinement_leaves_a_fair_cycle(self):
        # {0, 1, 2}: 0 -consume, take:r1-> 1 -ack-> 0 and 0 -a-> 2
        # -b-> 0 (a relay's cycle that adds nothing).  No adder of r1:
        # the consume edge goes, and {0, 2} remains, a cycle where
        # consume is enabled in 0 only: weakly fair, violated, stem 0,
        # component {0, 2}.
        self.verdict(3, [(0, "consume", 1, "take:r1"), (1, "ack", 0),
                         (0, "a", 2), (2, "b", 0)], {0, 1, 2}, stem=0,
                     component={0, 2}, weak_only=0)

    def test_08_removed_action_still_enabled(self):
        # As 07, but consume is enabled in 2 as well (2 -consume,
        # take:r1-> 1).  After the refinement {0, 2} remains, with
        # consume enabled in both of its states and none of its
        # transitions left: a run staying there never takes an action
        # that stays enabled, which weak fairness rules out: holds.
        # (Without compassion {0, 1, 2} is fair: every action is disabled
        # in 1 but ack, which is taken.)
        self.verdict(3, [(0, "consume", 1, "take:r1"), (1, "ack", 0),
                         (0, "a", 2), (2, "b", 0),
                         (2, "consume", 1, "take:r1")], {0, 1, 2},
                     weak_only=0)

    def test_09_self_loop_at_the_cap(self):
        # 0 -consume, take:r1-> 0: an instance of a one-step... taking
        # for ever from a count that stays at 2, nothing else: weakly
        # fair (the only action is taken), but no adder: holds.
        self.verdict(1, [(0, "consume", 0, "take:r1")], {0}, weak_only=0)

    def test_10_self_loop_with_an_adder(self):
        # As 09 with 0 -send, add:r1-> 0 too: asks r1, gives r1; both
        # actions enabled in 0 and taken: violated, stem 0; the loop
        # takes send (weak fairness asks for it anyway).
        lasso = self.verdict(1, [(0, "consume", 0, "take:r1"),
                                 (0, "send", 0, "add:r1")], {0}, stem=0,
                             component={0}, weak_only=0)
        self.assertIn("send", [a for _s, a, _t in lasso["loop"]])

    def test_11_adder_inside_but_weakly_unfair(self):
        # 0 -tc, take:c-> 1 -ac, add:c-> 0, with x leaving to the good
        # state 2 from both: compassion is met, but x stays enabled and is
        # never taken inside: holds (as without compassion).
        self.verdict(3, [(0, "tc", 1, "take:c"), (1, "ac", 0, "add:c"),
                         (0, "x", 2), (1, "x", 2)], {0, 1})

    def test_12_stem_through_takes(self):
        # Takes on the stem ask nothing: 0 -consume, take:r1-> 1, then
        # {1, 2} a closed cycle (a, b): violated, stem 1.
        self.verdict(3, [(0, "consume", 1, "take:r1"), (1, "a", 2),
                         (2, "b", 1)], {0, 1, 2}, stem=1, component={1, 2},
                     weak_only=1)

    def test_13_the_loop_must_go_out_of_its_way_to_pay(self):
        # {0, 1, 2}: c1 (take:r1) is a self-loop in every state, 0 -u-> 1
        # -v-> 0 and 1 -w-> 2 -send, add:r1-> 1.  c1 is enabled
        # everywhere, so a weakly fair loop must take it; a loop round
        # 0 alone (c1) would be weakly fair but take r1 for ever with no
        # send: the loop must go through 2 and send.  Violated, stem 0.
        lasso = self.verdict(
            3, [(0, "c1", 0, "take:r1"), (1, "c1", 1, "take:r1"),
                (2, "c1", 2, "take:r1"), (0, "u", 1), (1, "v", 0),
                (1, "w", 2), (2, "send", 1, "add:r1")], {0, 1, 2},
            stem=0, component={0, 1, 2}, weak_only=0)
        acts = [a for _s, a, _t in lasso["loop"]]
        self.assertIn("c1", acts)
        self.assertIn("send", acts)

    def test_14_split_into_two_then_one_fair(self):
        # Two cycles joined by the count's takes: {0, 1} (a, b) and
        # {2, 3} (c, d), joined by 1 -t, take:r-> 2 and 3 -t2, take:r->
        # 0; x leaves {0, 1} to the good state 4 from both its states.
        # No adder of r: the takes go; {0, 1} is unfair (x), {2, 3} fair:
        # violated, with the stem the shortest path to {2, 3}: 0 -a-> 1
        # -t-> 2, length 2.  Without compassion the whole {0, 1, 2, 3}
        # is fair (x is disabled in 2 and 3): stem 0.
        self.verdict(5, [(0, "a", 1), (1, "b", 0), (2, "c", 3), (3, "d", 2),
                         (1, "t", 2, "take:r"), (3, "t2", 0, "take:r"),
                         (0, "x", 4), (1, "x", 4)], {0, 1, 2, 3},
                     stem=2, component={2, 3}, weak_only=0)


def brute_force(edges, bad, counts, initial=0):
    """The shortest distance from the initial state to a state of some
    set of non-fault transitions between bad states that is strongly
    connected, meets every count's requirement and is weakly fair; None
    if no set is.  (A set of transitions stands for the transitions a run
    takes infinitely often; its states are their ends.)"""
    dist = {initial: 0}
    order = [initial]
    for s in order:
        for _a, t, _f in edges[s]:
            if t not in dist:
                dist[t] = dist[s] + 1
                order.append(t)
    cand = [(s, k) for s in range(len(edges)) if bad[s]
            for k, (_a, t, f) in enumerate(edges[s]) if not f and bad[t]]
    best = None
    for size in range(1, len(cand) + 1):
        for sub in itertools.combinations(cand, size):
            states = {s for s, _k in sub} | {edges[s][k][1] for s, k in sub}
            if not any(s in dist for s in states):
                continue
            if not strongly_connected(edges, states, sub):
                continue
            taken = set().union(*(counts[s][k][0] for s, k in sub))
            added = set().union(*(counts[s][k][1] for s, k in sub))
            if not taken <= added:
                continue
            always = set.intersection(*(fc.enabled_actions(edges, s)
                                        for s in states))
            if not always <= {edges[s][k][0] for s, k in sub}:
                continue
            d = min(dist[s] for s in states if s in dist)
            best = d if best is None else min(best, d)
    return best


def strongly_connected(edges, states, sub):
    """Every state of `states` reaches every other through `sub`, and
    each has a transition of `sub` out of it."""
    succ = {s: set() for s in states}
    pred = {s: set() for s in states}
    for s, k in sub:
        t = edges[s][k][1]
        succ[s].add(t)
        pred[t].add(s)
    if any(not succ[s] for s in states):
        return False
    return test_fairness.reaches_all_both_ways(states, succ, pred)


class Random(unittest.TestCase):
    def test_against_brute_force(self):
        # Random graphs of up to 6 states, 4 action names and 2 counts,
        # with at most 11 candidate transitions (non-fault, bad to bad):
        # the stem of find_fair_lasso is the brute force's shortest
        # distance, and every lasso's loop is fair and meets the
        # requirements.
        rng = random.Random(20250301)
        found = differs = tried = 0
        while tried < 1200:
            n = rng.randint(1, 6)
            edges = [[] for _ in range(n)]
            counts = [[] for _ in range(n)]
            for s in range(n):
                for _k in range(rng.randint(0, 3)):
                    act, t = rng.choice("abcd"), rng.randrange(n)
                    if any(a == act and u == t for a, u, _f in edges[s]):
                        continue    # the model has one per (action, target)
                    edges[s].append((act, t, rng.random() < 0.15))
                    takes = {c for c in "xy" if rng.random() < 0.3}
                    adds = {c for c in "xy"
                            if c not in takes and rng.random() < 0.15}
                    counts[s].append((frozenset(takes), frozenset(adds)))
            bad = [rng.random() < 0.75 for _ in range(n)]
            cand = sum(1 for s in range(n) if bad[s]
                       for _a, t, f in edges[s] if not f and bad[t])
            if cand > 11:
                continue
            tried += 1
            want = brute_force(edges, bad, counts)
            lasso = fc.find_fair_lasso(edges, bad, 0, counts)
            plain = fc.find_fair_lasso(edges, bad, 0)
            differs += (plain is None) != (want is None)
            if want is None:
                self.assertIsNone(lasso, (edges, counts, bad))
                continue
            found += 1
            self.assertIsNotNone(lasso, (edges, counts, bad))
            self.assertEqual(len(lasso["stem"]), want, (edges, counts, bad))
            entry = lasso["stem"][-1][2] if lasso["stem"] else 0
            self.assertTrue(fc.loop_is_fair(edges, bad, entry,
                                            lasso["loop"], counts),
                            (edges, counts, bad))
        self.assertGreater(found, 100)
        self.assertGreater(differs, 20)


if __name__ == "__main__":
    unittest.main()
