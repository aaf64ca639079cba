#!/usr/bin/env python3
"""Independent reference implementation of the outbox / broker / inbox model.

Written from /work/shared/MODEL.md sections 1-6 only (section 8 "Time" is
ignored), without reading the C++ checker, so that its verdicts and unreduced
state counts can be cross-checked.  Python 3.11+, standard library only.

Usage:  python3 outbox_reference.py FILE.toml...
Prints one JSON object per file (one per line).

Exhaustive mode (no [check] order):
  {"file", "states", "transitions", "terminal", "bounded_dead_ends", "depth",
   "violations": {inv: "holds" | shortest length}, "traces": {inv: [actions]}}
Replay mode ([check] order given):
  {"file", "mode": "order", "steps", "not_enabled": null | {"step", "action"},
   "final_terminal", "violations": {inv: "holds" | first step that breaks it}}

AMBIGUITY CHOICES (where MODEL.md does not pin a detail)
---------------------------------------------------------
 A1. State = exactly the tuple of section 2.  Durable tables a strategy does not
     use are carried as constant zeros (so they do not change the count).
     Per-key tables (version, cache) exist for every distinct `key` string among
     the events; an event without a key has no key entry.
 A2. Initial projection version of every key is 0 (events may carry version 0;
     then monotonic does not write and "version >= v" already holds).
     Cache entries start "stale" for every key.
 A3. Private in-flight data: check_then_act stores the inbox value it read
     (0/1); ledger_then_send stores 1 if its ledger row was new, else 0.  It is
     0 whenever the instance is not midway (so idle/holding carry none).
     Any other injective encoding gives the same counts.
 A4. "no relay holds e with token token[e]" = no relay whose phase is claimed
     or sent, with that event and that token.  A relay that was fenced out
     (token lower) does not hold the lease.
 A5. One expire(e) action per event even when both "orphaned" and "X > 0" are
     true; it spends X only when not orphaned.
 A6. redeliver applies only to a midway instance (as in the table), not to a
     holding one.  acknowledge changes only the instance (the broker bag has no
     in-flight counter in the state).
 A7. Transitions are counted per enabled action (two actions reaching the same
     successor count twice; consume(g,i,e) for different i are distinct
     actions).  Depth = max BFS distance from the initial state (initial = 0).
 A8. Terminal = no action enabled and no claim(r, e) blocked only by the claim
     bound (relay idle, published = 0, lease condition satisfied, token[e] >=
     bound).  A state with no enabled action but such a blocked claim is a
     "bounded dead end" and is not checked for at-rest invariants.  States with
     enabled actions are neither, even if some claim is bound-blocked.
 A9. Violation length: safety = BFS depth of the first violating state;
     projection_monotonic (transition) = depth(source) + 1 for the first
     decreasing transition; at-rest = depth of the shallowest violating
     terminal state.  The whole space is always explored (no early stop);
     `stop_at_first_violation`, `max_depth`, `max_states` are ignored.
A10. Invariants only look at groups of the matching kind (credit / projection /
     notification / cache); with no such group they hold vacuously.
     eventually_consumed: credit.naive needs effects >= 1; credit.inbox,
     credit.check_then_act, credit.effect_then_inbox also need inbox = 1;
     notification needs sent >= 1 and ledger = 1; projection needs
     version[g][key(e)] >= version(e); cache needs cache[g][key(e)] fresh.
     projection_converges: for every key, version = max version among events of
     that key.
A11. Action enumeration order (decides which of several shortest traces is
     printed): claim(r,e) by relay then event, send, send_ack_lost, complete,
     crash_relay per relay; expire(e) per event; then per group/instance:
     consume(g,i,e) per event, step, acknowledge, ack_lost, crash_consumer,
     redeliver.
A12. Replay: an action string matches an enabled action if equal ignoring
     whitespace.  Step k means "after the k-th action"; safety invariants are
     also checked on the initial state (step 0).  At-rest invariants are checked
     only if the state after the last step is terminal (A8).
A13. Broker: ready[g][e] is a count (bag); no delivery order.  Ordered delivery
     (mentioned as an option) is not in the scenario format and not modelled.

ISSUE 8 (relay styles, broker durability, message identity), written from
scenarios/FORMAT.md and the README's "Relay styles" section:
 B1. [source] commits = "during_run": every event starts pending; the action
     source_commit(e) commits it.  No relay sees a pending row.  With the
     cdc_offset style a commit also gives the row the next place in the
     commit log (1 + the number of rows committed before it); otherwise the
     log order is the event order.
 B2. row_lock: claim(r, e) locks an unpublished, committed row no relay is
     working on (tokens, owners, leases untouched); complete publishes it
     and frees the lock; crash_relay and commit_fails (budget F, only from
     "sent") roll it back: the relay goes idle, the row stays unpublished.
 B3. sequence_cursor (one relay): claim(r, e) only for e = the committed row
     with the smallest id above last_seen (ids = event order, from 1);
     complete publishes it and sets last_seen to its id.
 B4. cdc_offset (one relay): claim(r, e) reads the entry at place
     position + 1 of the commit log (position += 1); complete publishes;
     flush_offset(r), relay idle and position > flushed: flushed = position;
     crash_relay, when the relay works or position > flushed: idle,
     position = flushed.
 B5. lose_write(e), budget B: the broker holds a copy every group still
     waits for (offered >= 1, ready >= 1 in every group): offered, and each
     group's ready, go down by one.
 B6. [relay] message_id = "per_attempt": every delivered copy is a message
     the inbox and the ledger have never seen (lookups find no row).
 B7. offered_at_most_once (safety): offered[e] <= 1.
"""

import json
import sys
import tomllib
from collections import deque

CREDIT = ("credit.naive", "credit.inbox", "credit.check_then_act",
          "credit.effect_then_inbox")
PROJECTION = ("projection.lww", "projection.monotonic")
NOTIFICATION = ("notification.ledger_then_send", "notification.send_then_ledger")
CACHE = ("cache.invalidate",)
STRATEGIES = CREDIT + PROJECTION + NOTIFICATION + CACHE
TWO_STEP = ("credit.check_then_act", "credit.effect_then_inbox",
            "notification.ledger_then_send", "notification.send_then_ledger")
HAS_INBOX = ("credit.inbox", "credit.check_then_act", "credit.effect_then_inbox")

SAFETY = ("effect_at_most_once", "stale_completion_rejected",
          "notify_at_most_once", "offered_at_most_once")
TRANSITION = ("projection_monotonic",)
AT_REST = ("eventually_offered", "eventually_consumed", "projection_converges",
           "notify_at_least_once", "cache_consistent")

# relay phases
R_IDLE, R_CLAIMED, R_SENT = 0, 1, 2
# instance phases
I_IDLE, I_HOLDING, I_MIDWAY = 0, 1, 2
# lease
L_NONE, L_ACTIVE, L_EXPIRED = 0, 1, 2
# cache
STALE, FRESH = 0, 1

# State layout (a tuple of these fields, each field a tuple):
F_PUB, F_OWNER, F_TOKEN, F_LEASE, F_CTOK = 0, 1, 2, 3, 4       # per event
F_RELAYS = 5      # per relay (phase, event(1-based, 0 none), token)
F_OFFERED = 6     # per event
F_READY = 7       # per group: tuple per event
F_INST = 8        # per group: tuple per instance of (phase, event, private)
F_EFFECTS, F_INBOX, F_LEDGER, F_SENT = 9, 10, 11, 12   # per group: per event
F_VERSION, F_CACHE = 13, 14                             # per group: per key
F_BUDGET = 15     # (X, C, P, A, Q, V, F, B)
B_X, B_C, B_P, B_A, B_Q, B_V, B_F, B_B = range(8)
# issue 8
F_PENDING = 16    # per event: 1 while its source transaction is open
F_LOGPOS = 17     # per event: place in the commit log (cdc, during_run)
F_CURSOR = 18     # last_seen (sequence_cursor) or flushed offset (cdc)
F_POS = 19        # cdc: how far the connector has read


class Model:
    def __init__(self, cfg):
        relays = cfg["relays"]
        if isinstance(relays, int):
            self.relays = ["r%d" % (k + 1) for k in range(relays)]
        else:
            self.relays = list(relays)
        events = cfg["events"]
        if isinstance(events, int):
            self.events = [{"name": "e%d" % (k + 1)} for k in range(events)]
        else:
            self.events = []
            for k, ev in enumerate(events):
                ev = dict(ev)
                ev.setdefault("name", "e%d" % (k + 1))
                self.events.append(ev)
        self.groups = []
        for k, g in enumerate(cfg.get("groups", [])):
            s = g["strategy"]
            if s not in STRATEGIES:
                raise ValueError("unknown strategy %r" % s)
            self.groups.append({"name": g.get("name", "g%d" % (k + 1)),
                                "strategy": s,
                                "instances": int(g.get("instances", 1))})
        sw = cfg.get("switches", {})
        self.lease_on = bool(sw.get("lease", True))
        self.fencing = bool(sw.get("fencing", True))
        f = cfg.get("faults", {})
        self.budget0 = (int(f.get("premature_expiries", 0)),
                        int(f.get("relay_crashes", 0)),
                        int(f.get("lost_publish_acks", 0)),
                        int(f.get("lost_consumer_acks", 0)),
                        int(f.get("consumer_crashes", 0)),
                        int(f.get("redeliveries", 0)),
                        int(f.get("failed_commits", 0)),
                        int(f.get("lost_broker_writes", 0)))
        rl = cfg.get("relay", {})
        self.style = rl.get("style", "lease_token")
        self.per_attempt = rl.get("message_id", "outbox_id") == "per_attempt"
        self.during_run = cfg.get("source", {}).get("commits") == "during_run"
        self.claim_bound = cfg.get("bounds", {}).get("claims")
        # keys
        self.keys = []
        for ev in self.events:
            if "key" in ev and ev["key"] not in self.keys:
                self.keys.append(ev["key"])
        self.ev_key = [self.keys.index(ev["key"]) if "key" in ev else None
                       for ev in self.events]
        self.ev_version = [int(ev.get("version", 0)) for ev in self.events]
        for g in self.groups:
            if g["strategy"] in PROJECTION + CACHE:
                if any(k is None for k in self.ev_key):
                    raise ValueError("group %s needs a key on every event"
                                     % g["name"])
        self.nE, self.nR, self.nG = (len(self.events), len(self.relays),
                                     len(self.groups))
        self.nK = len(self.keys)

    # ------------------------------------------------------------------
    def initial(self):
        E, G, K = self.nE, self.nG, self.nK
        z = (0,) * E
        return (
            z, z, z, (L_NONE,) * E, z,
            ((R_IDLE, 0, 0),) * self.nR,
            z,
            (z,) * G,
            tuple(((I_IDLE, 0, 0),) * g["instances"] for g in self.groups),
            (z,) * G, (z,) * G, (z,) * G, (z,) * G,
            ((0,) * K,) * G, ((STALE,) * K,) * G,
            self.budget0,
            (1 if self.during_run else 0,) * E,
            (0,) * E, 0, 0,
        )

    @staticmethod
    def _set(tup, i, v):
        lst = list(tup)
        lst[i] = v
        return tuple(lst)

    @staticmethod
    def _set2(tup, i, j, v):
        inner = list(tup[i])
        inner[j] = v
        outer = list(tup)
        outer[i] = tuple(inner)
        return tuple(outer)

    def _holds_lease(self, s, e):
        tok = s[F_TOKEN][e]
        for (ph, ev, t) in s[F_RELAYS]:
            if ph != R_IDLE and ev == e + 1 and t == tok:
                return True
        return False

    def _log_place(self, s, e):
        return s[F_LOGPOS][e] if self.during_run else e + 1

    def _claim_ok_but_bound(self, s, r, e):
        """(enabled, blocked_only_by_bound)"""
        if s[F_RELAYS][r][0] != R_IDLE or s[F_PENDING][e]:
            return False, False
        if self.style == "row_lock":
            busy = any(ph != R_IDLE and ev == e + 1
                       for (ph, ev, _) in s[F_RELAYS])
            return (s[F_PUB][e] == 0 and not busy), False
        if self.style == "sequence_cursor":
            above = [f for f in range(self.nE)
                     if f + 1 > s[F_CURSOR] and not s[F_PENDING][f]]
            return (bool(above) and above[0] == e), False
        if self.style == "cdc_offset":
            return self._log_place(s, e) == s[F_POS] + 1, False
        if s[F_PUB][e] != 0:
            return False, False
        if self.lease_on and s[F_LEASE][e] == L_ACTIVE:
            return False, False
        if self.claim_bound is not None and s[F_TOKEN][e] >= self.claim_bound:
            return False, True
        return True, False

    def bound_blocked(self, s):
        for r in range(self.nR):
            for e in range(self.nE):
                if self._claim_ok_but_bound(s, r, e)[1]:
                    return True
        return False

    # ------------------------------------------------------------------
    def _send_copy(self, s, e):
        s[F_OFFERED] = self._set(s[F_OFFERED], e, s[F_OFFERED][e] + 1)
        s[F_READY] = tuple(self._set(rg, e, rg[e] + 1) for rg in s[F_READY])

    def _step(self, s, g, e, first):
        """Run the strategy's step on list-state s for group g, event e.
        Returns (done, private)."""
        strat = self.groups[g]["strategy"]
        get = lambda f: s[f][g][e]
        put = lambda f, v: s.__setitem__(f, self._set2(s[f], g, e, v))
        if strat == "credit.naive":
            put(F_EFFECTS, get(F_EFFECTS) + 1)
            return True, 0
        if strat == "credit.inbox":
            if get(F_INBOX) == 0 or self.per_attempt:
                put(F_INBOX, 1)
                put(F_EFFECTS, get(F_EFFECTS) + 1)
            return True, 0
        if strat in PROJECTION:
            k, v = self.ev_key[e], self.ev_version[e]
            cur = s[F_VERSION][g][k]
            if strat == "projection.lww" or v > cur:
                s[F_VERSION] = self._set2(s[F_VERSION], g, k, v)
            return True, 0
        if strat == "cache.invalidate":
            k = self.ev_key[e]
            s[F_CACHE] = self._set2(s[F_CACHE], g, k, FRESH)
            return True, 0
        raise AssertionError(strat)

    def _first_of_two(self, s, g, e):
        strat = self.groups[g]["strategy"]
        get = lambda f: s[f][g][e]
        put = lambda f, v: s.__setitem__(f, self._set2(s[f], g, e, v))
        if strat == "credit.check_then_act":
            return 0 if self.per_attempt else get(F_INBOX)
        if strat == "credit.effect_then_inbox":
            if get(F_INBOX) == 0 or self.per_attempt:
                put(F_EFFECTS, get(F_EFFECTS) + 1)
            return 0
        if strat == "notification.ledger_then_send":
            new = 1 if get(F_LEDGER) == 0 or self.per_attempt else 0
            put(F_LEDGER, 1)
            return new
        if strat == "notification.send_then_ledger":
            if get(F_LEDGER) == 0 or self.per_attempt:
                put(F_SENT, get(F_SENT) + 1)
            return 0
        raise AssertionError(strat)

    def _second_of_two(self, s, g, e, priv):
        strat = self.groups[g]["strategy"]
        get = lambda f: s[f][g][e]
        put = lambda f, v: s.__setitem__(f, self._set2(s[f], g, e, v))
        if strat == "credit.check_then_act":
            if priv == 0:
                put(F_EFFECTS, get(F_EFFECTS) + 1)
                put(F_INBOX, 1)
        elif strat == "credit.effect_then_inbox":
            put(F_INBOX, 1)
        elif strat == "notification.ledger_then_send":
            if priv == 1:
                put(F_SENT, get(F_SENT) + 1)
        elif strat == "notification.send_then_ledger":
            put(F_LEDGER, 1)
        else:
            raise AssertionError(strat)

    def _set_inst(self, s, g, i, val):
        s[F_INST] = self._set2(s[F_INST], g, i, val)

    def _budget(self, s, b):
        s[F_BUDGET] = self._set(s[F_BUDGET], b, s[F_BUDGET][b] - 1)

    def successors(self, s):
        """List of (action_text, next_state) for every enabled action."""
        out = []
        E = self.nE
        bud = s[F_BUDGET]
        for r, rname in enumerate(self.relays):
            ph, ev, tok = s[F_RELAYS][r]
            for e in range(E):
                if self._claim_ok_but_bound(s, r, e)[0] and \
                        self.style != "lease_token":
                    n = list(s)
                    n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_CLAIMED, e + 1, 0))
                    if self.style == "cdc_offset":
                        n[F_POS] = s[F_POS] + 1
                    out.append(("claim(%s, %s)" % (rname, self.events[e]["name"]),
                                tuple(n)))
                elif self._claim_ok_but_bound(s, r, e)[0]:
                    n = list(s)
                    t = s[F_TOKEN][e] + 1
                    n[F_TOKEN] = self._set(s[F_TOKEN], e, t)
                    n[F_OWNER] = self._set(s[F_OWNER], e, r + 1)
                    if self.lease_on:
                        n[F_LEASE] = self._set(s[F_LEASE], e, L_ACTIVE)
                    n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_CLAIMED, e + 1, t))
                    out.append(("claim(%s, %s)" % (rname, self.events[e]["name"]),
                                tuple(n)))
            if ph == R_CLAIMED:
                e = ev - 1
                n = list(s)
                self._send_copy(n, e)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_SENT, ev, tok))
                out.append(("send(%s)" % rname, tuple(n)))
                if bud[B_P] > 0:
                    n = list(s)
                    self._send_copy(n, e)
                    self._budget(n, B_P)
                    out.append(("send_ack_lost(%s)" % rname, tuple(n)))
            if ph == R_SENT and self.style != "lease_token":
                e = ev - 1
                n = list(s)
                n[F_PUB] = self._set(s[F_PUB], e, 1)
                if self.style == "sequence_cursor":
                    n[F_CURSOR] = max(s[F_CURSOR], ev)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_IDLE, 0, 0))
                out.append(("complete(%s)" % rname, tuple(n)))
            elif ph == R_SENT:
                e = ev - 1
                n = list(s)
                if s[F_PUB][e] == 0 and (not self.fencing or (
                        s[F_OWNER][e] == r + 1 and s[F_TOKEN][e] == tok)):
                    n[F_PUB] = self._set(s[F_PUB], e, 1)
                    n[F_CTOK] = self._set(s[F_CTOK], e, tok)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_IDLE, 0, 0))
                out.append(("complete(%s)" % rname, tuple(n)))
            unflushed = self.style == "cdc_offset" and s[F_POS] > s[F_CURSOR]
            if (ph != R_IDLE or unflushed) and bud[B_C] > 0:
                n = list(s)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_IDLE, 0, 0))
                self._budget(n, B_C)
                if self.style == "cdc_offset":
                    n[F_POS] = s[F_CURSOR]
                out.append(("crash_relay(%s)" % rname, tuple(n)))
        if self.lease_on:
            for e in range(E):
                if s[F_LEASE][e] == L_ACTIVE and s[F_PUB][e] == 0:
                    orphan = not self._holds_lease(s, e)
                    if orphan or bud[B_X] > 0:
                        n = list(s)
                        n[F_LEASE] = self._set(s[F_LEASE], e, L_EXPIRED)
                        if not orphan:
                            self._budget(n, B_X)
                        out.append(("expire(%s)" % self.events[e]["name"],
                                    tuple(n)))
        for g, grp in enumerate(self.groups):
            gname = grp["name"]
            two = grp["strategy"] in TWO_STEP
            for i in range(grp["instances"]):
                ph, ev, priv = s[F_INST][g][i]
                lbl = "%s, %d" % (gname, i + 1)
                if ph == I_IDLE:
                    for e in range(E):
                        if s[F_READY][g][e] > 0:
                            n = list(s)
                            n[F_READY] = self._set2(s[F_READY], g, e,
                                                    s[F_READY][g][e] - 1)
                            if two:
                                p = self._first_of_two(n, g, e)
                                self._set_inst(n, g, i, (I_MIDWAY, e + 1, p))
                            else:
                                self._step(n, g, e, True)
                                self._set_inst(n, g, i, (I_HOLDING, e + 1, 0))
                            out.append(("consume(%s, %s)" % (
                                lbl, self.events[e]["name"]), tuple(n)))
                    continue
                e = ev - 1
                if ph == I_MIDWAY:
                    n = list(s)
                    self._second_of_two(n, g, e, priv)
                    self._set_inst(n, g, i, (I_HOLDING, ev, 0))
                    out.append(("step(%s)" % lbl, tuple(n)))
                if ph == I_HOLDING:
                    n = list(s)
                    self._set_inst(n, g, i, (I_IDLE, 0, 0))
                    out.append(("acknowledge(%s)" % lbl, tuple(n)))
                    if bud[B_A] > 0:
                        n = list(s)
                        n[F_READY] = self._set2(s[F_READY], g, e,
                                                s[F_READY][g][e] + 1)
                        self._set_inst(n, g, i, (I_IDLE, 0, 0))
                        self._budget(n, B_A)
                        out.append(("ack_lost(%s)" % lbl, tuple(n)))
                if ph == I_MIDWAY and bud[B_Q] > 0:
                    n = list(s)
                    n[F_READY] = self._set2(s[F_READY], g, e,
                                            s[F_READY][g][e] + 1)
                    self._set_inst(n, g, i, (I_IDLE, 0, 0))
                    self._budget(n, B_Q)
                    out.append(("crash_consumer(%s)" % lbl, tuple(n)))
                if ph == I_MIDWAY and bud[B_V] > 0:
                    n = list(s)
                    n[F_READY] = self._set2(s[F_READY], g, e,
                                            s[F_READY][g][e] + 1)
                    self._budget(n, B_V)
                    out.append(("redeliver(%s)" % lbl, tuple(n)))
        # issue 8
        for e in range(E):
            if s[F_PENDING][e]:
                n = list(s)
                n[F_PENDING] = self._set(s[F_PENDING], e, 0)
                if self.style == "cdc_offset":
                    place = 1 + sum(1 for f in range(E) if not s[F_PENDING][f])
                    n[F_LOGPOS] = self._set(s[F_LOGPOS], e, place)
                out.append(("source_commit(%s)" % self.events[e]["name"],
                            tuple(n)))
        for r, rname in enumerate(self.relays):
            ph = s[F_RELAYS][r][0]
            if ph == R_SENT and bud[B_F] > 0:
                n = list(s)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_IDLE, 0, 0))
                self._budget(n, B_F)
                out.append(("commit_fails(%s)" % rname, tuple(n)))
            if self.style == "cdc_offset" and ph == R_IDLE and \
                    s[F_POS] > s[F_CURSOR]:
                n = list(s)
                n[F_CURSOR] = s[F_POS]
                out.append(("flush_offset(%s)" % rname, tuple(n)))
        for e in range(E):
            if bud[B_B] > 0 and s[F_OFFERED][e] >= 1 and \
                    all(rg[e] >= 1 for rg in s[F_READY]):
                n = list(s)
                n[F_OFFERED] = self._set(s[F_OFFERED], e, s[F_OFFERED][e] - 1)
                n[F_READY] = tuple(self._set(rg, e, rg[e] - 1)
                                   for rg in s[F_READY])
                self._budget(n, B_B)
                out.append(("lose_write(%s)" % self.events[e]["name"],
                            tuple(n)))
        return out

    # ------------------------------------------------------------------
    def _groups_of(self, kinds):
        return [g for g, grp in enumerate(self.groups) if grp["strategy"] in kinds]

    def safety_ok(self, name, s):
        E = self.nE
        if name == "effect_at_most_once":
            return all(s[F_EFFECTS][g][e] <= 1
                       for g in self._groups_of(CREDIT) for e in range(E))
        if name == "stale_completion_rejected":
            return all(s[F_PUB][e] == 0 or s[F_CTOK][e] == s[F_TOKEN][e]
                       for e in range(E))
        if name == "notify_at_most_once":
            return all(s[F_SENT][g][e] <= 1
                       for g in self._groups_of(NOTIFICATION) for e in range(E))
        if name == "offered_at_most_once":
            return all(s[F_OFFERED][e] <= 1 for e in range(E))
        raise ValueError(name)

    def transition_ok(self, name, s, n):
        if name == "projection_monotonic":
            return all(n[F_VERSION][g][k] >= s[F_VERSION][g][k]
                       for g in self._groups_of(PROJECTION)
                       for k in range(self.nK))
        raise ValueError(name)

    def at_rest_ok(self, name, s):
        E = self.nE
        if name == "eventually_offered":
            return all(s[F_PUB][e] == 1 and s[F_OFFERED][e] >= 1
                       for e in range(E))
        if name == "eventually_consumed":
            for g, grp in enumerate(self.groups):
                st = grp["strategy"]
                for e in range(E):
                    if st in CREDIT:
                        if s[F_EFFECTS][g][e] < 1:
                            return False
                        if st in HAS_INBOX and s[F_INBOX][g][e] != 1:
                            return False
                    elif st in NOTIFICATION:
                        if s[F_SENT][g][e] < 1 or s[F_LEDGER][g][e] != 1:
                            return False
                    elif st in PROJECTION:
                        if s[F_VERSION][g][self.ev_key[e]] < self.ev_version[e]:
                            return False
                    elif st in CACHE:
                        if s[F_CACHE][g][self.ev_key[e]] != FRESH:
                            return False
            return True
        if name == "projection_converges":
            best = {}
            for e in range(E):
                k = self.ev_key[e]
                if k is not None:
                    best[k] = max(best.get(k, self.ev_version[e]),
                                  self.ev_version[e])
            return all(s[F_VERSION][g][k] == v
                       for g in self._groups_of(PROJECTION)
                       for k, v in best.items())
        if name == "notify_at_least_once":
            return all(s[F_SENT][g][e] >= 1
                       for g in self._groups_of(NOTIFICATION) for e in range(E))
        if name == "cache_consistent":
            return all(s[F_CACHE][g][k] == FRESH
                       for g in self._groups_of(CACHE) for k in range(self.nK))
        raise ValueError(name)


def explore(model, invariants):
    s0 = model.initial()
    ids = {s0: 0}
    states = [s0]
    parent = [-1]
    via = [None]
    depth = [0]
    transitions = terminal = dead_ends = 0
    first = {}     # invariant -> (length, state_id, extra_action or None)
    safety = [i for i in invariants if i in SAFETY]
    trans = [i for i in invariants if i in TRANSITION]
    rest = [i for i in invariants if i in AT_REST]
    for i in invariants:
        if i not in SAFETY + TRANSITION + AT_REST:
            raise ValueError("unknown invariant %r" % i)
    for name in safety:
        if not model.safety_ok(name, s0):
            first[name] = (0, 0, None)
    head = 0
    while head < len(states):
        sid = head
        s = states[head]
        head += 1
        d = depth[sid]
        succ = model.successors(s)
        transitions += len(succ)
        if not succ:
            if model.bound_blocked(s):
                dead_ends += 1
            else:
                terminal += 1
                for name in rest:
                    if name not in first and not model.at_rest_ok(name, s):
                        first[name] = (d, sid, None)
        for act, n in succ:
            for name in trans:
                if name not in first and not model.transition_ok(name, s, n):
                    first[name] = (d + 1, sid, act)
            if n not in ids:
                nid = len(states)
                ids[n] = nid
                states.append(n)
                parent.append(sid)
                via.append(act)
                depth.append(d + 1)
                for name in safety:
                    if name not in first and not model.safety_ok(name, n):
                        first[name] = (d + 1, nid, None)
    violations, traces = {}, {}
    for name in invariants:
        if name not in first:
            violations[name] = "holds"
            continue
        length, sid, extra = first[name]
        path = []
        while sid > 0:
            path.append(via[sid])
            sid = parent[sid]
        path.reverse()
        if extra is not None:
            path.append(extra)
        assert len(path) == length
        violations[name] = length
        traces[name] = path
    return {"states": len(states), "transitions": transitions,
            "terminal": terminal, "bounded_dead_ends": dead_ends,
            "depth": max(depth), "violations": violations, "traces": traces}


def replay(model, invariants, order):
    norm = lambda a: "".join(a.split())
    s = model.initial()
    broke = {}
    for name in invariants:
        if name in SAFETY and not model.safety_ok(name, s):
            broke[name] = 0
    not_enabled = None
    steps = 0
    for k, want in enumerate(order, start=1):
        succ = model.successors(s)
        match = [n for act, n in succ if norm(act) == norm(want)]
        if not match:
            not_enabled = {"step": k, "action": want}
            break
        n = match[0]
        for name in invariants:
            if name in broke:
                continue
            if name in SAFETY and not model.safety_ok(name, n):
                broke[name] = k
            if name in TRANSITION and not model.transition_ok(name, s, n):
                broke[name] = k
        s = n
        steps = k
    final_terminal = (not model.successors(s)) and not model.bound_blocked(s)
    if final_terminal and not_enabled is None:
        for name in invariants:
            if name in AT_REST and name not in broke \
                    and not model.at_rest_ok(name, s):
                broke[name] = steps
    return {"mode": "order", "steps": steps, "not_enabled": not_enabled,
            "final_terminal": final_terminal,
            "violations": {n: broke.get(n, "holds") for n in invariants}}


def run_file(path):
    with open(path, "rb") as fh:
        cfg = tomllib.load(fh)
    model = Model(cfg)
    check = cfg.get("check", {})
    invariants = list(check.get("invariants", []))
    result = {"file": path}
    if check.get("order"):
        result.update(replay(model, invariants, check["order"]))
    else:
        result.update(explore(model, invariants))
    return result


def main(argv):
    if not argv:
        print(__doc__.split("AMBIGUITY")[0], file=sys.stderr)
        return 2
    rc = 0
    for path in argv:
        try:
            print(json.dumps(run_file(path)), flush=True)
        except Exception as exc:  # report and continue with the next file
            print(json.dumps({"file": path, "error": "%s: %s" % (
                type(exc).__name__, exc)}), flush=True)
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
