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


def component_is_fair(edges, comp):
    """Every non-fault action enabled in all states of comp is taken by a
    non-fault transition between two states of comp."""
    inside = set(comp)
    always = None
    for s in comp:
        here = enabled_actions(edges, s)
        always = here if always is None else always & here
    taken = {act for s in comp for act, t, fault in edges[s]
             if not fault and t in inside}
    return always <= taken


def component_is_nontrivial(edges, comp):
    if len(comp) > 1:
        return True
    s = comp[0]
    return any(t == s and not fault for _act, t, fault in edges[s])


def fair_components(edges, bad):
    """Every non-trivial fair maximal component of the bad subgraph,
    reachable or not (lists of states)."""
    succ = _subgraph(edges, bad)
    comps = kosaraju([s for s in range(len(edges)) if bad[s]], succ)
    return [c for c in comps if component_is_nontrivial(edges, c)
            and component_is_fair(edges, c)]


def _walk(edges, here, inside, stop):
    """The shortest path from `here` through non-fault transitions inside
    `inside` to a state for which stop(state) holds (here itself: the
    empty path); a list of (source, action, target), or None."""
    prev = {here: None}
    queue = deque([here])
    while queue:
        s = queue.popleft()
        if stop(s):
            path = []
            while prev[s] is not None:
                p, act = prev[s]
                path.append((p, act, s))
                s = p
            path.reverse()
            return path
        for act, t, fault in edges[s]:
            if not fault and t in inside and t not in prev:
                prev[t] = (s, act)
                queue.append(t)
    return None


def fair_loop(edges, comp, entry):
    """A closed walk from entry inside comp (non-fault transitions) that
    visits, for each non-fault action enabled somewhere in comp, a state
    where it is disabled or a transition taking it; a list of (source,
    action, target), at least one step long.  comp must be fair and
    non-trivial."""
    inside = set(comp)
    enabled = {s: enabled_actions(edges, s) for s in comp}
    owed = set().union(*enabled.values())
    met = set(owed - enabled[entry])
    loop, here = [], entry

    def go(path):
        nonlocal here
        for s, act, t in path:
            met.add(act)
            met.update(owed - enabled[t])
        loop.extend(path)
        if path:
            here = path[-1][2]

    for act in sorted(owed, key=repr):
        if act in met:
            continue
        if any(act not in enabled[s] for s in comp):
            # walk to the nearest state where it is disabled
            go(_walk(edges, here, inside,
                     lambda s, a=act: a not in enabled[s]))
        else:
            # the component is fair: a transition inside takes it
            takes = lambda s, a=act: any(
                b == a and not f and t in inside for b, t, f in edges[s])
            go(_walk(edges, here, inside, takes))
            t = next(t for b, t, f in edges[here]
                     if b == act and not f and t in inside)
            go([(here, act, t)])
    if not loop:
        # nothing owed that the entry does not already meet: any step
        # inside, then back
        act, t = next((a, t) for a, t, f in edges[entry]
                      if not f and t in inside)
        go([(entry, act, t)])
    if here != entry:
        go(_walk(edges, here, inside, lambda s: s == entry))
    return loop


def find_fair_lasso(edges, bad, initial=0):
    """The nearest reachable fair component's lasso: None when there is
    none, else a dict with "stem" (list of (source, action, target) from
    the initial state), "loop" (likewise, from the stem's end back to it)
    and "component" (its states)."""
    comps = fair_components(edges, bad)
    if not comps:
        return None
    owner = {}
    for k, c in enumerate(comps):
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
            comp = comps[owner[s]]
            return {"stem": stem, "loop": fair_loop(edges, comp, s),
                    "component": sorted(comp)}
        for act, t, _fault in edges[s]:
            if t not in prev:
                prev[t] = (s, act)
                queue.append(t)
    return None


def loop_is_fair(edges, bad, entry, loop):
    """The run that repeats `loop` for ever from `entry` is fair and never
    meets P: the loop is a closed walk of non-fault transitions through bad
    states, and every non-fault action enabled in all of its states is
    taken in it."""
    if not loop or loop[0][0] != entry or loop[-1][2] != entry:
        return False
    states = set()
    for k, (s, act, t) in enumerate(loop):
        if k and loop[k - 1][2] != s:
            return False
        if not bad[s] or (act, t, False) not in edges[s]:
            return False
        states.add(s)
    always = set.intersection(*(enabled_actions(edges, s) for s in states))
    return always <= {act for _s, act, _t in loop}


def has_cycle(edges):
    """Some cycle, of any transitions (faults included), in the graph: a
    component of more than one state, or a self-loop."""
    succ = [sorted({t for _a, t, _f in out}) for out in edges]
    if any(s in succ[s] for s in range(len(edges))):
        return True
    return any(len(c) > 1 for c in kosaraju(range(len(edges)), succ))
