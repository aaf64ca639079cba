"""Fair components of a state graph: the reference model's reading of
docs/SEMANTICS.md section 15 ("Liveness under weak fairness"), written from
that page alone.  Standard library only.

A graph is given as `edges`: for each state (numbered from 0; the initial
state is `initial`), the list of its outgoing transitions as tuples
(action, target, fault).  `action` is the action with its arguments (any
hashable label); `fault` is true for an action that spends a budget.  The
list of a state holds every transition enabled in it, so an action is
enabled in a state exactly when the state has a transition labelled with
it.  `bad[s]` is true where the property P fails.

A property "P leads to ... " (section 15) is violated exactly when the
subgraph of the bad states and of the non-fault transitions between them has
a strongly connected component that is

  - reachable from the initial state (through any transitions, faults
    included: a run takes finitely many faults, so its prefix may take
    some),
  - non-trivial: more than one state, or a state with a non-fault self-loop,
  - fair: every non-fault action enabled in all of its states is taken by a
    transition inside it (weak fairness of every action with its
    arguments; faults are not owed fairness).

Only maximal components need testing: an action enabled everywhere in an
unfair component and never taken inside it is enabled everywhere in any
part of it and taken in none.

The components are computed with Kosaraju's two passes (a depth-first
search of the subgraph that records finishing order, then searches of the
reversed subgraph in reverse finishing order, each of which collects one
component), both iterative.  This is deliberately not Tarjan's single-pass
algorithm, which the C++ checker uses through Boost.Graph.

The stem is a breadth-first path over the whole graph from the initial
state to the nearest state of a fair component; the loop starts and ends
there, stays inside the component, and visits, for every non-fault action
enabled somewhere in the component, a state where it is disabled or a
transition that takes it.

Compassion for saturated counts (section 15, "Saturated counts and
compassion").  In the abstract space of section 14 a count of "2 or more"
that falls may stay at 2, so the abstract graph has runs that take copies
from such a count for ever while nothing adds to it; no concrete run does.
Each saturated count c is therefore also a compassion (strong fairness)
requirement: a run that takes from c at the cap infinitely often adds to c
infinitely often.  The caller says, per transition, which counts it takes
from at the cap and which it adds to: `counts[s][k] = (takes, adds)`, two
sets of count labels, for the transition `edges[s][k]` (counts None: no
requirement, plain weak fairness).  Which transitions those are in the
outbox model is outbox_reference.py's business (choice U8 there).

With requirements, a component of the bad subgraph is refined before weak
fairness is judged (a Streett-style refinement):

  - the counts it asks for are the counts some transition inside it takes
    from at the cap; the counts it gives, those some transition inside it
    adds to;
  - if it asks for a count it never gives, every transition inside it
    that takes from that count at the cap is removed, and what remains of
    the component is split into strongly connected components again (with
    the remaining transitions only), each refined in turn;
  - a component that asks for nothing it does not give is kept when it is
    non-trivial (judged on the remaining transitions: more than one state,
    or a remaining non-fault self-loop) and weakly fair: every non-fault
    action enabled in all of its states (enabled in the state, whether or
    not its transitions were removed) is taken by a remaining transition
    inside it.

This is complete and sound for the infinity sets of fair runs: a run's
transitions taken infinitely often form a strongly connected set that
meets every requirement; inside a component with no adder of c such a set
cannot take from c at the cap (the premise would hold and the consequence
not), so it lies in what remains after removal; and an unfair refined
component has no fair part, as for the maximal components.  A count with
no adder in a component is, besides, constant on it (only an adder raises
an abstract count), so "taking from it at the cap" and "taking a copy and
leaving it at 2", the page's wording, pick out the same transitions there.

The loop of a lasso then uses remaining transitions only, and besides
weak fairness it meets the requirements itself: for each count it takes
from at the cap, it also takes a transition that adds to it.
"""
from collections import deque


def _subgraph(edges, bad):
    """Successor lists of the bad states through non-fault transitions to
    bad states (duplicates removed, order kept)."""
    succ = [[] for _ in edges]
    for s, out in enumerate(edges):
        if not bad[s]:
            continue
        seen = set()
        for _act, t, fault in out:
            if not fault and bad[t] and t not in seen:
                seen.add(t)
                succ[s].append(t)
    return succ


def kosaraju(nodes, succ):
    """Strongly connected components of the graph on `nodes` (an iterable
    of state numbers) with successor lists `succ` (targets outside `nodes`
    must not occur).  Returns a list of lists of states; every node is in
    exactly one of them."""
    nodes = list(nodes)
    member = set(nodes)
    pred = {v: [] for v in nodes}
    for v in nodes:
        for w in succ[v]:
            pred[w].append(v)
    # Pass 1: finishing order of an iterative depth-first search.
    visited, order = set(), []
    for root in nodes:
        if root in visited:
            continue
        visited.add(root)
        stack = [(root, iter(succ[root]))]
        while stack:
            v, it = stack[-1]
            for w in it:
                if w not in visited:
                    assert w in member
                    visited.add(w)
                    stack.append((w, iter(succ[w])))
                    break
            else:
                stack.pop()
                order.append(v)
    # Pass 2: on the reversed graph, in reverse finishing order; each search
    # collects exactly one component.
    assigned, comps = set(), []
    for root in reversed(order):
        if root in assigned:
            continue
        assigned.add(root)
        comp, todo = [], [root]
        while todo:
            v = todo.pop()
            comp.append(v)
            for w in pred[v]:
                if w not in assigned:
                    assigned.add(w)
                    todo.append(w)
        comps.append(comp)
    return comps


def enabled_actions(edges, s):
    """The non-fault actions enabled in s: those fairness applies to."""
    return {act for act, _t, fault in edges[s] if not fault}


def _inside_edges(edges, comp, allowed=None):
    """The transitions (s, k) between states of comp that are non-fault
    (and in `allowed`, when given)."""
    inside = set(comp)
    return {(s, k) for s in comp for k, (_a, t, f) in enumerate(edges[s])
            if not f and t in inside
            and (allowed is None or (s, k) in allowed)}


def component_is_fair(edges, comp, allowed=None):
    """Every non-fault action enabled in all states of comp is taken by a
    non-fault transition between two states of comp (one of `allowed`,
    when given: what a refinement left)."""
    always = None
    for s in comp:
        here = enabled_actions(edges, s)
        always = here if always is None else always & here
    taken = {edges[s][k][0] for s, k in _inside_edges(edges, comp, allowed)}
    return always <= taken


def component_is_nontrivial(edges, comp, allowed=None):
    if len(comp) > 1:
        return True
    s = comp[0]
    return any(t == s and not fault
               and (allowed is None or (s, k) in allowed)
               for k, (_act, t, fault) in enumerate(edges[s]))


def _asked_not_given(counts, inner):
    """The counts some transition of `inner` takes from at the cap and
    none adds to."""
    taken, added = set(), set()
    for s, k in inner:
        takes, adds = counts[s][k]
        taken |= takes
        added |= adds
    return taken - added


def fair_parts(edges, bad, counts=None):
    """Every non-trivial fair component of the bad subgraph, after the
    compassion refinement when `counts` is given, reachable or not: a list
    of (states, transitions), the states a sorted list, the transitions
    the set of (s, k) (edges[s][k]) left inside it."""
    succ = _subgraph(edges, bad)
    work = [(c, None) for c in
            kosaraju([s for s in range(len(edges)) if bad[s]], succ)]
    out = []
    while work:
        comp, allowed = work.pop(0)
        inner = _inside_edges(edges, comp, allowed)
        if not component_is_nontrivial(edges, comp, inner):
            continue
        if counts is not None:
            owed = _asked_not_given(counts, inner)
            if owed:
                left = {(s, k) for s, k in inner
                        if not counts[s][k][0] & owed}
                sub = {s: [] for s in comp}
                for s, k in sorted(left):
                    t = edges[s][k][1]
                    if t not in sub[s]:
                        sub[s].append(t)
                work.extend((c, left) for c in kosaraju(sorted(comp), sub))
                continue
        if component_is_fair(edges, comp, inner):
            out.append((sorted(comp), inner))
    return out


def fair_components(edges, bad, counts=None):
    """Every non-trivial fair component of the bad subgraph (maximal ones,
    or, with compassion requirements `counts`, what their refinement
    leaves), reachable or not (lists of states)."""
    return [c for c, _inner in fair_parts(edges, bad, counts)]


def _walk(edges, here, inner, stop):
    """The shortest path from `here` through the transitions `inner` (a
    set of (s, k)) to a state for which stop(state) holds (here itself:
    the empty path); a list of transitions (s, k), or None."""
    prev = {here: None}
    queue = deque([here])
    while queue:
        s = queue.popleft()
        if stop(s):
            path = []
            while prev[s] is not None:
                p, k = prev[s]
                path.append((p, k))
                s = p
            path.reverse()
            return path
        for k, (_act, t, _fault) in enumerate(edges[s]):
            if (s, k) in inner and t not in prev:
                prev[t] = (s, k)
                queue.append(t)
    return None


def fair_loop(edges, comp, entry, inner=None, counts=None):
    """A closed walk from entry through the transitions `inner` of comp
    (default: every non-fault one inside) that visits, for each non-fault
    action enabled somewhere in comp, a state where it is disabled or a
    transition taking it, and, with compassion requirements `counts`,
    adds to every count it takes from at the cap; a list of (source,
    action, target), at least one step long.  comp must be fair and
    non-trivial (after refinement, with `inner` what it left)."""
    if inner is None:
        inner = _inside_edges(edges, comp)
    enabled = {s: enabled_actions(edges, s) for s in comp}
    owed = set().union(*enabled.values())
    met = set(owed - enabled[entry])
    taken, added = set(), set()
    loop, here = [], entry

    def go(path):
        nonlocal here
        for s, k in path:
            act, t, _f = edges[s][k]
            met.add(act)
            met.update(owed - enabled[t])
            if counts is not None:
                taken.update(counts[s][k][0])
                added.update(counts[s][k][1])
            loop.append((s, act, t))
            here = t

    def take(pick):
        """Walk to the nearest state with a transition of `inner` for
        which pick(s, k) holds, and take it."""
        go(_walk(edges, here, inner, lambda s: any(
            pick(s, k) for k in range(len(edges[s])) if (s, k) in inner)))
        k = next(k for k in range(len(edges[here]))
                 if (here, k) in inner and pick(here, k))
        go([(here, k)])

    for act in sorted(owed, key=repr):
        if act in met:
            continue
        if any(act not in enabled[s] for s in comp):
            # walk to the nearest state where it is disabled
            go(_walk(edges, here, inner,
                     lambda s, a=act: a not in enabled[s]))
        else:
            # the component is fair: a transition inside takes it
            take(lambda s, k, a=act: edges[s][k][0] == a)
    if not loop:
        # nothing owed that the entry does not already meet: any step
        # inside, then back
        take(lambda s, k: True)
    while True:
        # compassion: every count taken from at the cap is added to (the
        # component gives every count it asks for, so an adder exists)
        for c in sorted(taken - added, key=repr):
            take(lambda s, k, c=c: c in counts[s][k][1])
        if here != entry:
            go(_walk(edges, here, inner, lambda s: s == entry))
        if not taken - added:
            return loop


def find_fair_lasso(edges, bad, initial=0, counts=None):
    """The nearest reachable fair component's lasso: None when there is
    none, else a dict with "stem" (list of (source, action, target) from
    the initial state), "loop" (likewise, from the stem's end back to it)
    and "component" (its states).  counts: the compassion requirements
    of saturated counts (module docstring), or None."""
    parts = fair_parts(edges, bad, counts)
    if not parts:
        return None
    owner = {}
    for k, (c, _inner) in enumerate(parts):
        for s in c:
            owner[s] = k
    # breadth-first over every transition, faults included
    prev = {initial: None}
    queue = deque([initial])
    while queue:
        s = queue.popleft()
        if s in owner:
            stem = []
            v = s
            while prev[v] is not None:
                p, act = prev[v]
                stem.append((p, act, v))
                v = p
            stem.reverse()
            comp, inner = parts[owner[s]]
            return {"stem": stem,
                    "loop": fair_loop(edges, comp, s, inner, counts),
                    "component": sorted(comp)}
        for act, t, _fault in edges[s]:
            if t not in prev:
                prev[t] = (s, act)
                queue.append(t)
    return None


def loop_is_fair(edges, bad, entry, loop, counts=None):
    """The run that repeats `loop` for ever from `entry` is fair and never
    meets P: the loop is a closed walk of non-fault transitions through bad
    states, every non-fault action enabled in all of its states is taken
    in it, and (with compassion requirements `counts`) every count it
    takes from at the cap it also adds to."""
    if not loop or loop[0][0] != entry or loop[-1][2] != entry:
        return False
    states = set()
    taken, added = set(), set()
    for k, (s, act, t) in enumerate(loop):
        if k and loop[k - 1][2] != s:
            return False
        if not bad[s] or (act, t, False) not in edges[s]:
            return False
        if counts is not None:
            j = edges[s].index((act, t, False))
            taken |= counts[s][j][0]
            added |= counts[s][j][1]
        states.add(s)
    if not taken <= added:
        return False
    always = set.intersection(*(enabled_actions(edges, s) for s in states))
    return always <= {act for _s, act, _t in loop}


def has_cycle(edges):
    """Some cycle, of any transitions (faults included), in the graph: a
    component of more than one state, or a self-loop."""
    succ = [sorted({t for _a, t, _f in out}) for out in edges]
    if any(s in succ[s] for s in range(len(edges))):
        return True
    return any(len(c) > 1 for c in kosaraju(range(len(edges)), succ))
