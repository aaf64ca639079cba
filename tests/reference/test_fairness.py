#!/usr/bin/env python3
"""Unit checks of the reference model's fairness routine
(fair_components.py, docs/SEMANTICS.md section 15) on small graphs solved
by hand, then against a brute force over every set of states on random
graphs.  Standard library only:

    python3 tests/reference/test_fairness.py

A graph is written as a list of transitions (source, action, target) or
(source, action, target, "fault"); state 0 is the initial state; `bad`
lists the states where the property P fails.  A property is violated when
a reachable, non-trivial, fair component of the bad states' non-fault
transitions exists; the stem is the shortest path (over every transition)
from state 0 to a state of one.
"""
import itertools
import pathlib
import random
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import fair_components as fc  # noqa: E402


def graph(n, transitions):
    edges = [[] for _ in range(n)]
    for tr in transitions:
        s, act, t = tr[:3]
        edges[s].append((act, t, len(tr) > 3 and tr[3] == "fault"))
    return edges


def badness(n, bad):
    return [s in bad for s in range(n)]


class HandSolved(unittest.TestCase):
    def verdict(self, n, transitions, bad, stem=None, component=None):
        """stem None: P holds; otherwise the stem's length and the
        component the lasso loops in."""
        edges = graph(n, transitions)
        b = badness(n, bad)
        lasso = fc.find_fair_lasso(edges, b, 0)
        if stem is None:
            self.assertIsNone(lasso)
            return
        self.assertIsNotNone(lasso)
        self.assertEqual(len(lasso["stem"]), stem)
        self.assertEqual(lasso["component"], sorted(component))
        # the stem is a path of the graph from the initial state
        here = 0
        for s, act, t in lasso["stem"]:
            self.assertEqual(s, here)
            self.assertIn(t, [x for a, x, _ in edges[s] if a == act])
            here = t
        self.assertIn(here, component)
        # the loop is a fair closed walk inside the component
        self.assertTrue(fc.loop_is_fair(edges, b, here, lasso["loop"]))
        self.assertTrue(all(s in component for s, _, _ in lasso["loop"]))

    def test_01_terminal_bad_state_is_no_lasso(self):
        # 0 has no transition at all: a run that ends there is checked as a
        # terminal state, not here; {0} is trivial (no self-loop).
        self.verdict(1, [], {0})

    def test_02_self_loop_is_a_lasso(self):
        # 0 -a-> 0, bad: {0} is non-trivial by its self-loop; the only
        # action, a, is enabled there and taken inside: fair.  Stem 0.
        self.verdict(1, [(0, "a", 0)], {0}, stem=0, component={0})

    def test_03_closed_cycle(self):
        # 0 -a-> 1 -b-> 0, both bad, nothing else: a is enabled only in 0,
        # b only in 1, so nothing is enabled in all states; fair.  Stem 0.
        self.verdict(2, [(0, "a", 1), (1, "b", 0)], {0, 1}, stem=0,
                     component={0, 1})

    def test_04_cycle_with_a_fair_exit(self):
        # 0 -a-> 1 -b-> 0, and c leaves to the good state 2 from both:
        # c is enabled in every state of {0, 1} and never taken inside, so
        # weak fairness forces it: unfair, P holds.
        self.verdict(3, [(0, "a", 1), (1, "b", 0), (0, "c", 2), (1, "c", 2)],
                     {0, 1})

    def test_05_exit_enabled_only_in_one_state(self):
        # As 04, but c is enabled in 0 only: on the cycle it is disabled
        # every other step, and weak fairness does not force an action
        # that does not stay enabled.  Fair: violated, stem 0.
        self.verdict(3, [(0, "a", 1), (1, "b", 0), (0, "c", 2)], {0, 1},
                     stem=0, component={0, 1})

    def test_06_exit_only_through_a_fault(self):
        # As 04, but the exit f is a fault (it spends a budget): faults are
        # owed no fairness, so {0, 1} is fair: violated, stem 0.
        self.verdict(3, [(0, "a", 1), (1, "b", 0), (0, "f", 2, "fault"),
                         (1, "f", 2, "fault")], {0, 1}, stem=0,
                     component={0, 1})

    def test_07_cycle_reachable_only_through_a_fault(self):
        # 0 -f(fault)-> 1 -a-> 2 -b-> 1, all bad, and 0 can only fault:
        # a run takes finitely many faults, so it may take f once and then
        # cycle for ever.  {1, 2} is fair; the stem is the fault: 1.
        self.verdict(3, [(0, "f", 1, "fault"), (1, "a", 2), (2, "b", 1)],
                     {0, 1, 2}, stem=1, component={1, 2})

    def test_08_cycle_of_faults_only(self):
        # 0 -f-> 1 -g-> 0, both faults: going round it takes infinitely
        # many faults, which no fair run does; the non-fault subgraph has
        # no edge, so every component is trivial: holds.
        self.verdict(2, [(0, "f", 1, "fault"), (1, "g", 0, "fault")],
                     {0, 1})

    def test_09_cycle_that_needs_a_fault(self):
        # 0 -a-> 1 -f(fault)-> 0: every turn takes the fault; without it
        # {0} and {1} are trivial: holds.
        self.verdict(2, [(0, "a", 1), (1, "f", 0, "fault")], {0, 1})

    def test_10_one_instance_starved(self):
        # Two instances of a group: 0 -consume(g, 1)-> 1 -ack(g, 1)-> 0
        # while consume(g, 2) is enabled in 0 and in 1 and leads to the
        # good state 2.  Instance 2 would starve on {0, 1}: consume(g, 2)
        # stays enabled and is never taken inside, so the component is
        # unfair (weak fairness is per action with its arguments): holds.
        self.verdict(3, [(0, "consume(g, 1)", 1), (1, "ack(g, 1)", 0),
                         (0, "consume(g, 2)", 2), (1, "consume(g, 2)", 2)],
                     {0, 1})

    def test_11_action_disabled_on_the_cycle_only_sometimes(self):
        # 0 -a-> 1 -b-> 2 -c-> 0, and x leaves to the good state 3 from 0
        # and 1 but is disabled in 2: x does not stay enabled along the
        # cycle, so weak fairness does not force it (strong fairness
        # would).  Fair: violated, stem 0.
        self.verdict(4, [(0, "a", 1), (1, "b", 2), (2, "c", 0),
                         (0, "x", 3), (1, "x", 3)], {0, 1, 2}, stem=0,
                     component={0, 1, 2})

    def test_12_arguments_distinguish_actions(self):
        # 0 -consume(e1)-> 1 -ack-> 0 and 1 -consume(e1)-> 1, with
        # consume(e2) enabled in 0 and 1 and leading out (to good state 2).
        # consume(e1) is enabled throughout and taken inside, but
        # consume(e2) is another action, also enabled throughout and never
        # taken inside: unfair, holds.
        self.verdict(3, [(0, "consume(e1)", 1), (1, "ack", 0),
                         (1, "consume(e1)", 1),
                         (0, "consume(e2)", 2), (1, "consume(e2)", 2)],
                     {0, 1})

    def test_13_always_enabled_and_taken_inside(self):
        # 0 -a-> 1 -a-> 0 and 1 -a-> 2 (good): a is enabled everywhere and
        # some a transition stays inside, so taking it for ever is fair
        # (fairness asks that a be taken, not that it leave).  Violated,
        # stem 0.
        self.verdict(3, [(0, "a", 1), (1, "a", 0), (1, "a", 2)], {0, 1},
                     stem=0, component={0, 1})

    def test_14_nearest_fair_component_behind_an_unfair_one(self):
        # 0 -p-> 1; {1, 2} is a cycle (a, b) that x leaves from both
        # states: unfair.  0 -q-> 3 -r-> 4; {4, 5} is a closed cycle
        # (c, d): fair.  The unfair one is nearer (1 step), the fair one
        # is entered at 4, 2 steps away: violated, stem 2.
        self.verdict(7, [(0, "p", 1), (1, "a", 2), (2, "b", 1),
                         (1, "x", 6), (2, "x", 6),
                         (0, "q", 3), (3, "r", 4), (4, "c", 5), (5, "d", 4)],
                     {0, 1, 2, 3, 4, 5}, stem=2, component={4, 5})

    def test_15_cycle_through_a_good_state(self):
        # 0 -a-> 1 -b-> 0 with P holding in 1: every turn meets P, and the
        # bad subgraph {0} has no self-loop: holds.
        self.verdict(2, [(0, "a", 1), (1, "b", 0)], {0})

    def test_16_unreachable_fair_component(self):
        # 0 -a-> 3 (good, terminal); {1, 2} is a closed bad cycle that no
        # transition from 0 reaches: holds.
        self.verdict(4, [(0, "a", 3), (1, "b", 2), (2, "c", 1)], {0, 1, 2})

    def test_17_fault_self_loop(self):
        # 0 -f(fault)-> 0 and nothing else: an infinite run repeats a fault
        # for ever: holds.
        self.verdict(1, [(0, "f", 0, "fault")], {0})

    def test_18_self_loop_with_an_always_enabled_exit(self):
        # 0 -a-> 0 and 0 -b-> 1 (good): b is enabled in the whole
        # component {0} and not taken inside: unfair, holds.
        self.verdict(2, [(0, "a", 0), (0, "b", 1)], {0})

    def test_19_entered_at_the_nearest_state(self):
        # 0 -a-> 1 -b-> 2, 0 -c-> 3, and 2 -d-> 3 -e-> 2 with 0, 1 good:
        # the fair component {2, 3} is 1 step away through 3, 2 through 2:
        # violated, stem 1.
        self.verdict(4, [(0, "a", 1), (1, "b", 2), (0, "c", 3),
                         (2, "d", 3), (3, "e", 2)], {2, 3}, stem=1,
                     component={2, 3})

    def test_20_same_action_a_fault_in_one_state(self):
        # Like a premature expiry: x is a fault in 0 (it spends a budget
        # there) and an ordinary action in 1, leading out to the good
        # state 2 either way; 0 -a-> 1 -b-> 0.  As a non-fault action x
        # is enabled only in 1, so it does not stay enabled: fair,
        # violated, stem 0.
        self.verdict(3, [(0, "a", 1), (1, "b", 0), (0, "x", 2, "fault"),
                         (1, "x", 2)], {0, 1}, stem=0, component={0, 1})

    def test_21_same_action_ordinary_in_every_state(self):
        # As 20 with x an ordinary action in 0 too: enabled throughout,
        # never taken inside: unfair, holds.
        self.verdict(3, [(0, "a", 1), (1, "b", 0), (0, "x", 2),
                         (1, "x", 2)], {0, 1})

    def test_22_unfair_maximal_component_with_fair_looking_part(self):
        # {0, 1, 2}: 0 -a-> 1 -b-> 0 and 1 -c-> 2 -d-> 1, and y leaves to
        # the good state 3 from all three.  Every part of the component
        # (the cycle 0-1, the cycle 1-2) also has y enabled throughout and
        # never taken: holds, as section 15 argues.
        self.verdict(4, [(0, "a", 1), (1, "b", 0), (1, "c", 2), (2, "d", 1),
                         (0, "y", 3), (1, "y", 3), (2, "y", 3)], {0, 1, 2})

    def test_23_fairness_needs_a_long_loop(self):
        # {0, 1, 2}: 0 -a-> 1 -b-> 0, 0 -c-> 2 -d-> 0; e leaves from 1
        # and 2 (to good 3), disabled in 0.  The component is fair (e is
        # disabled in 0); any fair loop must pass through 0, and b and d
        # need not both be taken.  Violated, stem 0.
        self.verdict(4, [(0, "a", 1), (1, "b", 0), (0, "c", 2), (2, "d", 0),
                         (1, "e", 3), (2, "e", 3)], {0, 1, 2}, stem=0,
                     component={0, 1, 2})

    def test_24_fair_loop_must_take_both_branches(self):
        # {0, 1, 2}: 0 -a-> 1 -b-> 0 and 0 -c-> 2 -d-> 0 (a and c enabled
        # in 0 only); z is enabled in all three, leading out to the good
        # state 3 from 0 and 1 and staying inside only by 2 -z-> 2.  The
        # component is fair (z is taken inside), but a loop round 0-1
        # alone would leave z enabled throughout and never taken: the
        # loop must reach 2 and take z there.  Violated, stem 0.
        self.verdict(4, [(0, "a", 1), (1, "b", 0), (0, "c", 2), (2, "d", 0),
                         (2, "z", 2), (0, "z", 3), (1, "z", 3)], {0, 1, 2},
                     stem=0, component={0, 1, 2})


def brute_force(edges, bad, initial=0):
    """The shortest distance from the initial state to a state of some
    set of bad states that is strongly connected through non-fault
    transitions inside it, non-trivial and fair; None if no set is."""
    n = len(edges)
    dist = {initial: 0}
    order = [initial]
    for s in order:
        for _a, t, _f in edges[s]:
            if t not in dist:
                dist[t] = dist[s] + 1
                order.append(t)
    best = None
    bads = [s for s in range(n) if bad[s]]
    for k in range(1, len(bads) + 1):
        for sub in itertools.combinations(bads, k):
            inside = set(sub)
            if not any(s in dist for s in sub):
                continue
            if not strongly_connected(edges, inside):
                continue
            if len(sub) == 1 and not any(t == sub[0] and not f
                                         for _a, t, f in edges[sub[0]]):
                continue
            always = set.intersection(*(fc.enabled_actions(edges, s)
                                        for s in sub))
            taken = {a for s in sub for a, t, f in edges[s]
                     if not f and t in inside}
            if always <= taken:
                d = min(dist[s] for s in sub if s in dist)
                best = d if best is None else min(best, d)
    return best


def reaches_all_both_ways(states, succ, pred):
    """One state of `states` reaches every other by `succ` and is reached
    from every other by `pred` (successor and predecessor sets): `states`
    is strongly connected through those edges."""
    start = next(iter(states))
    for nxt in (succ, pred):
        seen, todo = {start}, [start]
        while todo:
            v = todo.pop()
            for w in nxt[v]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        if seen != states:
            return False
    return True


def strongly_connected(edges, inside):
    succ = {s: set() for s in inside}
    pred = {s: set() for s in inside}
    for s in inside:
        for _a, t, f in edges[s]:
            if not f and t in inside:
                succ[s].add(t)
                pred[t].add(s)
    return reaches_all_both_ways(inside, succ, pred)


class Random(unittest.TestCase):
    def test_against_brute_force(self):
        # Random graphs of up to 7 states and 4 action names: the stem of
        # find_fair_lasso is the brute force's shortest distance (every
        # fair set lies in a fair maximal component, section 15), and
        # every lasso's loop is fair.
        rng = random.Random(20240611)
        found = 0
        for _ in range(1500):
            n = rng.randint(1, 7)
            edges = [[] for _ in range(n)]
            for s in range(n):
                for _k in range(rng.randint(0, 3)):
                    edges[s].append((rng.choice("abcd"), rng.randrange(n),
                                     rng.random() < 0.2))
            bad = [rng.random() < 0.7 for _ in range(n)]
            want = brute_force(edges, bad)
            lasso = fc.find_fair_lasso(edges, bad, 0)
            if want is None:
                self.assertIsNone(lasso, edges)
                continue
            found += 1
            self.assertIsNotNone(lasso, edges)
            self.assertEqual(len(lasso["stem"]), want, edges)
            entry = lasso["stem"][-1][2] if lasso["stem"] else 0
            self.assertTrue(fc.loop_is_fair(edges, bad, entry,
                                            lasso["loop"]), edges)
        self.assertGreater(found, 100)

    def test_kosaraju_against_transitive_closure(self):
        rng = random.Random(7)
        for _ in range(300):
            n = rng.randint(1, 9)
            succ = [sorted({rng.randrange(n)
                            for _k in range(rng.randint(0, 3))})
                    for _ in range(n)]
            reach = [[s == t for t in range(n)] for s in range(n)]
            for s in range(n):
                for t in succ[s]:
                    reach[s][t] = True
            for k in range(n):
                for s in range(n):
                    for t in range(n):
                        if reach[s][k] and reach[k][t]:
                            reach[s][t] = True
            comps = fc.kosaraju(range(n), succ)
            self.assertEqual(sorted(s for c in comps for s in c),
                             list(range(n)))
            where = {s: k for k, c in enumerate(comps) for s in c}
            for s in range(n):
                for t in range(n):
                    self.assertEqual(where[s] == where[t],
                                     reach[s][t] and reach[t][s])


if __name__ == "__main__":
    unittest.main()
