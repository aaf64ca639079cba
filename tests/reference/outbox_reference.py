#!/usr/bin/env python3
"""Independent reference implementation of the outbox / broker / inbox model.

Written from the reference semantics (restated in docs/SEMANTICS.md)
sections 1-6 and, for section 8 (time), from model/TIME.md alone, without
reading the C++ checker, so that its verdicts and unreduced state counts can
be cross-checked.  Python 3.11+, standard library only.  A scenario without
any duration is untimed and explored exactly as before (choices A1..A13);
the timed extension follows TIME.md, with the choices T1.. below.  Declared
strategies (strategy = { file = "..." }), events' own attributes, declared
tables, domains, the idempotency-key window and the scenario's [[invariants]]
expressions follow scenarios/strategies/LANGUAGE.md (parser:
reference_language.py), and [initial] scenarios/FORMAT.md, with the
choices L1...  Fault budgets of "any" and the abstract search follow
docs/SEMANTICS.md section 14, and liveness under weak fairness section 15
(fairness routine: fair_components.py, with the compassion of saturated
counts), with the choices U1.., pinned lassos (check.loop) U9, and the
partitioned broker docs/SEMANTICS.md section 16, its producer retries
(section 16.1) and its handler failures and retry topics (section 16.2),
with the choices P1.., at the end.

Usage:  python3 outbox_reference.py FILE.toml...
Prints one JSON object per file (one per line).

Exhaustive mode (no [check] order):
  {"file", "states", "transitions", "terminal", "bounded_dead_ends", "depth",
   "violations": {inv: "holds" | shortest length | "inconclusive"},
   "traces": {inv: [actions]}, "fired": [action classes]}
  and, in the abstract space (U2), "abstraction"; when the state graph was
  kept (U7), "loops": {inv: [actions]} (a lasso: "traces" has its stem,
  whose length "violations" gives) and "cyclic"; when a violation did not
  replay on the concrete model (U6, U7), "inconclusive": {inv: reason}.
Replay mode ([check] order given):
  {"file", "mode": "order", "steps", "not_enabled": null | {"step", "action"},
   "final_terminal", "violations": {inv: "holds" | first step that breaks it}}
  and, with [check] loop (U9), "loop_steps" and "warnings" (a list); a
  lasso's at-rest violation is at the order's length.

AMBIGUITY CHOICES (where the reference semantics do not pin a detail)
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
A13. Broker: ready[g][e] is a count (bag); no delivery order.  The ordered,
     partitioned broker of docs/SEMANTICS.md section 16 is [broker] delivery
     = "partitioned" (P1..).

RELAY STYLES, BROKER DURABILITY AND MESSAGE IDENTITY, written from
scenarios/FORMAT.md and docs/RELAY_STYLES.md:
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
 B8. age_sweeper (timed; model/TIME.md, "The age sweeper"): no lease, no
     token.  Per row a flag begun[e] (the producer's dispatcher has taken
     it) and the row age clock[e] (units since the start of the run, capped
     at M + P, 0 once published); per relay a send clock (units since its
     send began, capped at S, 0 unless claimed).  claim(r, e), relay idle,
     row unpublished: with begun = 0 it is the dispatch (no database read,
     due at once); with begun = 1 it is a sweep, enabled at age >= M with
     the database up and due at age >= M + P.  Either sets begun = 1 and
     the relay's send clock to 0.  send(r) is due once the send clock is
     >= S (enabled from 0); it zeroes the send clock, as does send_ack_lost
     (a new attempt).  complete(r), database up: published = 1 (again, if
     it already was), age 0.  crash_relay as for row_lock.  A row waits
     while unpublished with age < M + P; a relay while claimed with send
     clock < S.  M = relay.min_age, S = relay.send_time (0 if unset),
     P = time.poll (0 if unset); both relay durations count for the unit.
 B9. inline_dispatch (docs/SEMANTICS.md section 11; untimed; needs
     source.commits = "during_run"): no lease, no token; the per-event flag
     begun[e] is B8's cell (the row's dispatch pass has run).  claim(r, e),
     relay idle, begun = 0, and the row committed unless
     relay.dispatch_waits_for_commit = false: begun = 1; a committed row
     makes the relay claimed(e, 0), a pending one leaves it idle (the pass
     found nothing; the row is never marked published, nothing else
     changes, and no later action sends or removes it: the cleanup that
     removes it in the prose has no cell).  No published = 0 test: begun
     = 0 already implies it (begun is set by every claim and cleared only
     by the crash of a relay working on an unpublished row).  send,
     send_ack_lost, complete: as for every style but lease_token.
     crash_relay(r), r not idle: idle, C -= 1, and begun[e] = 0 when the
     row of r is unpublished (always, in fact, while a relay works on it).
     dispatch_waits_for_commit is a boolean, default true; false with any
     other style, inline_dispatch without during_run, with a duration or
     broker.dedup, with [switches], premature_expiries, failed_commits or
     bounds.claims, are load errors.
B10. sequence_cursor with [relay] gaps = "wait" (docs/SEMANTICS.md
     section 11, "Gaps"; model/TIME.md, "The gap-waiting cursor"): claim(r,
     e) needs, besides B3's guard, every pending row with an id strictly
     between last_seen and id(e) stale: G = relay.gap_timeout set and
     clock[f] >= G (without G no pending row is ever stale).  The gap age
     lives in clock[e] (the lease clock's cell; time.lease and time.poll
     are refused, so it is never a lease clock) and exists when the
     scenario is timed: tick ages it while the row is pending, capped at
     max(G, Tx) (plain clocks: uncapped), source_commit sets it to 0.
     source_commit(e) is due iff Tx = source.commit_within is set and
     clock[e] >= Tx (untimed: as before, due, which changes nothing); claim,
     send, complete are due when enabled.  A pending row waits while (G set
     and clock < G) or (Tx set and clock < Tx).  G and Tx join the unit's
     gcd.  Refused: relay.gaps other than "pass_over" / "wait", relay.gaps
     with any style but sequence_cursor, gap_timeout or commit_within
     without gaps = "wait"; with gaps = "wait", every duration but G, Tx
     and time.horizon, broker.dedup other than "none", message_id =
     "per_attempt", lost_broker_writes and the outage budgets (TIME.md:
     "the other durations, outages, broker deduplication, per-attempt ids
     and lost broker writes are refused").  gaps = "wait" without
     source.commits = "during_run" is accepted (no row is ever pending, so
     it is "pass_over").  With gaps = "pass_over" (the default) nothing
     changes.

AMBIGUITY CHOICES OF THE TIMED EXTENSION (where model/TIME.md does not pin it)
-----------------------------------------------------------------------------
 T1. Durations: one or more <digits><d|h|m|s> terms, no spaces, units largest
     first and each at most once, summed ("1h30m", "90m", "5400s" are equal;
     "30m1h", "1h1h" and "" are errors); "0s" is accepted.  The unit is
     the gcd of every duration the scenario sets, time.horizon and every entry
     of every redelivery schedule included (zeros do not count; 1 s if all are
     zero).  Every duration, the horizon included, must be <= 10,000 units.
 T2. Timed = at least one duration is set.  broker.dedup = "producer_session"
     sets no duration: without any duration it still applies (retrying[r] and
     dropped copies; no clock, so no tick and urgency changes nothing) rather
     than being ignored.  offered_at_most_once may be checked untimed too.
 T3. With time.lease unset (clock[e] exists because of time.poll), the clock
     of an active lease is capped at 0 (plain: it counts, nothing reads it) and
     never waits; expire is that of docs/SEMANTICS.md section 3 (orphaned:
     free; else premature, spends X).  Every expire resets clock[e] = 0 when
     the cell exists.  With time.poll unset P = 0: the none/expired clock
     stays 0 (capped), never waits, and every claim is due.
 T4. Faults, never due: crash_relay, send_ack_lost, ack_lost, crash_consumer,
     redeliver (its budget V is a fault budget in docs/SEMANTICS.md
     section 1), a premature expire (spends X: with time.lease clock < L,
     without it not orphaned), consumer_outage, database_outage.  Due when
     enabled: send, complete, non-premature expire, consume, step,
     acknowledge, retry, redrive, dead_letter_expire.  claim(r, e) is due
     iff clock[e] >= P (always without a clock); cleanup iff inbox_age >=
     T + I'.  tick is never due.  Urgency is per action: any due action
     anywhere blocks tick.
 T5. With time.lease, expire(e) is one action: when clock[e] >= L it spends
     nothing and is due, even if X > 0; otherwise (X > 0) it is premature.
 T6. The database outage gates only claim and complete (send and expire do
     not touch the outbox database's availability in TIME.md).  A consumer
     outage gates only consume, step and acknowledge of that group; retry,
     redrive, dead_letter_expire (broker side) and cleanup (the group's job)
     still fire while the group is down.
 T7. consumer_outage is not a failed delivery: the copy of every holding or
     midway instance returns at once (ready += 1), parked and attempts do not
     change, the instance becomes idle (private data zeroed).  Both outage
     budgets are single global pools (one consumer_outages for all groups);
     down[g] exists for every group when time.consumer_outage is set.
 T8. tick, capped clocks: clock[e] moves only while unpublished, capped at L
     (lease active) or P (none/expired); window[e] only while offered >= 1,
     cap W; inbox_age only while inbox = 1, cap T + I'; park_age only while
     parked != none, cap max(delays, D, R + 1) of those the group sets;
     down[g] and database_down go down to 0; now += 1 when it exists.  Plain
     clocks: the same cells move under the same conditions, with no cap (a
     cell whose meaning is "0 while ..." stays 0).
 T9. `now` exists (and is part of the state) with a horizon, also capped, or
     with plain clocks.  Without a horizon time is unbounded (every tick needs
     a waiting clock below its threshold, so the space stays finite).
T10. A state with no successor is a bounded dead end (not terminal, at-rest
     invariants not checked, counted in "bounded_dead_ends") when a claim is
     blocked only by the claim bound (A8, regardless of database_down) or when
     now = horizon and some clock is waiting; otherwise it is terminal.
T11. eventually_consumed, for a credit group that sets inbox_retention, needs
     effects >= 1 only: a retained row has a waiting inbox_age, so no terminal
     state keeps it and "inbox = 1" would fail every such scenario.  Groups
     without retention: unchanged (A10).
T12. The inbox row is "inserted" when inbox[g][e] goes 0 -> 1 in a consume or
     a step; a check_then_act second step that finds the row present does not
     reset its age.  A row deleted by cleanup and inserted again is a new row.
T13. Failed deliveries: ack_lost and crash_consumer.  With parked != none they
     are not enabled (no budget spent).  retry keeps attempts (the next failure
     is attempts + 1); redeliver (visibility timeout) neither reads nor changes
     parked / attempts; acknowledge zeroes attempts[g][e] (cell present only in
     groups with a schedule or a dead-letter queue).  `redelivery = []` is an
     error.  Retention is strict (TIME.md): cleanup is enabled at inbox_age
     >= T + 1 and due at >= T + I' (I' = inbox_cleanup_every, 1 if unset;
     an explicit "0s" is also read as I' = 1, since an age capped at T + 0
     could never reach T + 1); dead_letter_expire is enabled (and due) at
     park_age >= R + 1; redrive at park_age >= D.  A dead copy waits while
     park_age < max(D, R + 1) of those set.  So with T >= D a redrive finds
     the inbox row still there.  With D = R + 1 both redrive and
     dead_letter_expire are enabled (a choice).
T14. Dedup window: a copy is dropped when offered[e] >= 1 and window[e] < W at
     the send; a dropped copy does not reset window[e].  Producer session: a
     dropped send_ack_lost still sets retrying and spends its budget; complete
     zeroes retrying also when it is fenced out.
T15. Enumeration order (which shortest trace is printed): A11's order, then
     per group after its instances: per event retry, redrive,
     dead_letter_expire, cleanup; then consumer_outage(g); after all groups
     database_outage; tick last.  Action texts: tick, retry(g, e),
     redrive(g, e), dead_letter_expire(g, e), cleanup(g, e),
     consumer_outage(g), database_outage.
T16. Refused (error): time.lease with switches.lease = false; clocks = "plain"
     without horizon; broker.window without dedup = "window" or the reverse;
     inbox_retention on a strategy without an inbox; inbox_cleanup_every
     without inbox_retention; an outage budget without its duration or the
     reverse; a duration above 10,000 units.  Unknown keys are not checked.
T17. Initial clocks are all 0 (every row claimable from the start); all
     timed budgets and cells are carried in every state (constant in untimed
     scenarios, so untimed counts do not change).
T18. A delayed copy whose attempts[g][e] an acknowledge (of another copy of
     e) zeroed waits for d_0 = 0: its retry is enabled and due at once.
     TIME.md defines d_k only for k >= 1.  (An earlier version read d_0 as
     the last delay; with a one-delay schedule the two differ in the states
     where the wait is not over.  Found by comparing small hand-made
     scenarios with the checker; no bundled scenario pins it.)

THE HANDLER LANGUAGE AND INVARIANT EXPRESSIONS (scenarios/strategies/LANGUAGE.md)
-------------------------------------------------------------------------------
 L1. State: every group carries a tuple of its declared tables (in the order
     of the strategy's [tables]), each a tuple of cells: one per event
     (by = "event") or one per value of the domain (L9).  Cells start at 0,
     or at the scenario's [initial] value (L10).  Built-in tables are the
     fields of A1.  A built-in group carries no declared cells.
 L2. Private data of an instance while midway (a handler has 1 to 4
     steps; consume runs the first, each step action the next): the tuple
     (next step, carried locals..., stop flag).  A local is carried when
     some step reads it after an earlier step set it (LANGUAGE.md:
     "a local read in a later step than one that sets it"); the stop flag
     is there when a step before the last contains `stop handler`.  0 when
     not midway, as in A3; lost with crash_consumer / consumer_outage.  A
     stopped handler's later steps do nothing and keep the carried locals
     as they were.  A `stop handler` in a one-step handler, or in the last
     step, is `stop`.
 L3. Locals default to 0 / false in each step; integers carried to a later step
     wrap to 16-bit signed.  Booleans and 0/1 are one value (Python's
     False == 0), which is the same partition of states.  A local set to a
     value of a domain (`payer = event.from`) holds the value itself and is
     carried like the others.  A local no statement of the step has set (a
     guard was false, or a `stop` came first) reads, and is carried, as 0
     (false), or, for a local of a domain, as the domain's first value
     (LANGUAGE.md, "Locals").
 L4. idempotency_key_window = K (a duration of the scenario: it joins the
     unit's gcd).  The provider has seen the key of e when sent[g][e] > 0.
     key_age[g][e] exists when the group sets K: 0 while sent = 0; a
     `call ... with_key` let through sets it to 0; tick ages it while
     sent > 0, capped at K (plain clocks: uncapped).  A keyed call is
     dropped when sent > 0 and (no window, or key_age < K); a dropped call
     changes nothing.  key_age never waits (it ages only while something
     else makes time pass, like window[e]).  A call without with_key is
     always taken and does not touch key_age.  A window on a group whose
     handler makes no keyed call is refused.  TIME.md does not describe
     this cell; LANGUAGE.md only points at it.
 L5. Group kind: the kind of the built-in tables its handler names (reads
     or writes); none: custom; two kinds: refused.  The built-in invariants
     select groups by kind.  eventually_consumed for a declared group is the
     built-in's rule for its kind: credit needs effects >= 1 and, when the
     handler names inbox (and no retention), inbox = 1; notification needs
     sent >= 1 and ledger = 1; custom is vacuous.  group.inbox = the handler
     names inbox; group.retention = inbox_retention is set.
 L6. B6 (per_attempt message ids) applies to the declared handlers' reads
     of inbox and ledger (and to `x = insert` on them: always new); declared
     tables are the scenario's own keys and are read as they are.
 L7. Invariant expressions: a text attribute missing on an event reads as
     no value (equal to nothing, an empty cell as index); a number attribute
     missing reads 0.  `X == Y` between an event and a quoted name compares
     the event.  An aggregate over `Ds` ranges over the values of domain D
     (L9) and binds D; `Xs` for an attribute X placed in another domain is
     an error.  Values of a domain are compared as text: `event.from ==
     account` is true when the two name the same value.
     An invariant with `groups` holds when it holds for each matching group
     (none: holds); without `groups` it is evaluated once and a table needs
     GROUP.  A transition invariant's old(...) reads the source state; its
     violation length is A9's.  Declared invariants are checked exactly where
     the built-ins of the same kind are (A9, A12).
 L8. check_pinned.py --declared-strategies / --declared-invariants replace
     the nine built-in strategies by scenarios/strategies/NAME.toml and the
     thirteen built-in invariants (the ten of section 6 and the three of
     section 16) by scenarios/invariants/NAME.toml (Model's
     declared_builtins / declared_invariants).
 L9. Domains.  The [domains] of every strategy file of the scenario apply to
     the whole scenario (handlers and invariants).  A text attribute holds
     values of the domain of its own name unless a [domains] list places it
     in another; the attribute named like a declared domain is in that
     domain.  An attribute placed in two domains, a domain list naming key,
     type or name, or an attribute some event carries as an integer is
     refused.  When two strategies declare the same domain, its attributes
     are the domain's own name, then the first strategy's list, then the
     attributes the next one adds (groups in scenario order).  The values
     of domain D: for each event in scenario order, for each attribute of
     D in that order, the value if the event carries it and it is new.  A
     table by D has one cell per value, indexed by any value of D
     (event.from, event.to, a local holding one); `by` naming an attribute
     placed in another domain is refused.  Only the attributes a handler
     reads (event.A, and key) are required on every event: a table by a
     domain needs none (the earlier reading also required the attribute a
     table was `by`; LANGUAGE.md now makes `by` name a domain, which need
     not be an attribute of any event).
L10. [initial] (scenarios/FORMAT.md): [initial.GROUP] TABLE = { KEY = v }.
     GROUP must have a declared strategy with TABLE in its [tables]; KEY is
     a value of the table's domain or, by event, an event name; v is a
     boolean for a row table (true = the row is present), an integer in
     -32768..32767 for a number table.  The values are the first state's
     cells; nothing else changes.  The cell bounds are not checked (as in
     the earlier readings, the reference does not check the checker's
     bounds).
L11. Every invariant a scenario declares in [[invariants]] is checked,
     listed in check.invariants or not (the unlisted ones after the listed
     ones, in declaration order), unless its block says check = false; a
     listed invariant whose block says check = false is not checked
     either.
L12. check.must_fire (scenarios/FORMAT.md): an exhaustive run reports the
     action classes that fired ("fired"): the name before "(", and
     complete_published (lease_token: the complete set published; every
     other style publishes) or complete_rejected, expire_premature (the
     expiry spent X) or expire_orphaned, and send_deduplicated for a send
     or send_ack_lost whose copy the broker dropped.  check_pinned.py fails
     a scenario whose must_fire lists a class that never fired.

ANY NUMBER OF FAULTS AND LIVENESS (docs/SEMANTICS.md sections 14 and 15)
-----------------------------------------------------------------------
 U1. A budget of "any" (every budget of [faults], the outage budgets
     included) is carried in the state as 1 and never spent, so its guard
     never closes.
 U2. The exhaustive search explores the abstract space when some budget is
     "any", or when lease_token relays run without a lease and without a
     claim bound.  A scenario's own declared strategy with an "any" budget
     is refused (section 14); a built-in replaced by its declared
     definition (check_pinned.py --declared) is accepted.  In either
     abstract case a handler with a number table of its own is refused:
     its counts are not abstracted, so the space need not be finite
     (section 14 says nothing of declared strategies without a lease and
     without a claim bound; row tables, 0 or 1, are accepted).  A pinned
     order replays the concrete model, as always.
 U3. An abstract state's successors: each enabled action is applied to
     it as to a concrete state, then offered, ready, effects and sent are
     cut at 2; every offered or ready cell that was 2 before and is 1
     after yields both 1 and 2 (every combination when several do, the
     all-1 one first, duplicates dropped); then tokens are renumbered
     (U4).  Each abstract successor counts as a transition; action classes
     (L12) are read from the concrete successor, before the cut (so a send
     at offered = 2 is not taken for a dropped copy).
 U4. Without a claim bound, for each event: the tokens in use are the
     row's token, its completed_token and the token of every relay
     claimed or sent with the event (fenced-out ones included); their
     nonzero values are replaced by their rank (1 for the smallest, equal
     values the same rank), 0 stays 0.
 U5. Faults (section 15): send_ack_lost, crash_relay, ack_lost,
     crash_consumer, redeliver, consumer_outage, database_outage,
     commit_fails, lose_write, and a premature expire (untimed: the lease
     is held; with time.lease: its time is not up), whether or not the
     budget is "any".  Weak fairness is owed to the non-fault
     transitions: an action (its text, arguments included) counts as
     enabled in a state for fairness when the state has a non-fault
     transition with that text, so expire(e) is owed only where it is
     free.
 U6. A safety, transition or terminal at-rest violation found in the
     abstract space is the breadth-first path to the first violating state
     (or step) met; it is replayed on the concrete model by action text:
     every action enabled, and the end breaking the invariant (a safety
     invariant in the last state, a transition invariant in the last
     step, an at-rest invariant in a last state that is terminal).  If it
     does not replay, the invariant is "inconclusive"; no other path of
     the same length is tried.
 U7. Liveness: after the search, when the space is abstract (or when asked
     with liveness = "always", as check_pinned.py does for every
     exhaustive scenario), every at-rest invariant not violated in a
     terminal state (U6) is checked by fair_components.py on the graph of
     every transition (faults marked, U5): a reachable, non-trivial, fair
     component of its failing states' non-fault transitions.  Its lasso:
     the stem, a breadth-first path over all transitions from the initial
     state to the first state of a fair component it reaches; the loop,
     inside the component, back to that state.  In the abstract space the
     stem and two turns of the loop are replayed on the concrete model,
     every action enabled and the invariant failing in every state from
     the stem's end on; otherwise "inconclusive".  The violation's length
     is the stem's.  "cyclic" says whether the kept graph has any cycle
     at all, faults included.
 U8. Compassion for saturated counts (section 15, "Saturated counts and
     compassion"), in the abstract space only.  The counts it concerns
     are those section 14 saturates and that can fall: offered[e] per
     event, and ready[g][e] per group and event (effects and sent only
     grow: exact, no requirement).  Reading of "take from" and "add to",
     per transition s --act--> m of the abstract graph, from n, the
     concrete successor of act applied to the abstract state s (before
     the cut at 2, U3):
       - act takes from a count c at the cap when s[c] = 2 and
         n[c] < s[c] (it takes a copy out of "2 or more"); both of its
         abstract transitions, the one where c becomes 1 and the one
         where it stays 2, do;
       - act adds to c when n[c] > s[c] (at the cap too, where the
         abstract count stays 2).
     In the model, so: offered[e] is taken from only by lose_write(e)
     and added to by a send or send_ack_lost of e whose copy the broker
     accepts (not a deduplicated one); ready[g][e] is taken from by
     consume(g, i, e) (and consume_retry, partitioned only, which never
     combines with "any") and lose_write(e), and added to by a send or
     send_ack_lost the broker accepts (every group), by ack_lost and
     crash_consumer of an instance holding / midway e when the copy is
     not parked, by redeliver, by retry(g, e) and redrive(g, e) (a
     parked copy made ready), by consumer_outage for each instance that
     was working on e (and consume_fails with a retry topic,
     partitioned).  Faults (U5) are not in the subgraph fairness is
     judged on, so only non-fault takers and adders matter: a consumer
     taking copies of e for ever needs a send of e (or a timed retry or
     redrive) inside the component.  The requirement of each count c:
     a run that takes from c at the cap infinitely often adds to c
     infinitely often.  fair_components.py refines each component of a
     failing property's subgraph: one that takes from some count at the
     cap and never adds to it loses every transition taking from it at
     the cap and is split again, until none asks for what it never
     gives; weak fairness is then judged on what remains (an action
     still counts as enabled in a state whose transitions of it were
     removed, and counts as taken only by a remaining transition).  The
     lasso's loop adds to every count it takes from at the cap.
     Concrete graphs (bounded budgets, liveness = "always") carry no
     requirement: their counts are exact.
 U9. A pinned order with check.loop (scenarios/FORMAT.md, [check] loop;
     docs/SEMANTICS.md section 10, item 7) replays the order, then the
     loop twice, every step enabled at its turn (else "not_enabled" names
     the step, counted along the whole path, and "loop_turn"); safety and
     transition invariants are checked along the whole path, step
     numbers running on, and at-rest ones in a terminal last state as
     for an order.  An at-rest invariant not otherwise broken that fails
     in every state of both turns (the state where the loop starts, and
     every state after it) is violated, at the order's length, when the
     loop is a fair cycle: no step of it is a fault (U5, judged in the
     state it is taken from), and every non-fault action enabled in all
     of those states is taken by some step of the loop (compared by
     text, spaces ignored); otherwise "warnings" says why it shows
     nothing.  The state graph is not built, so no compassion (U8) is
     asked of a loop: it follows the concrete model, whose counts are
     exact.

THE PARTITIONED BROKER (docs/SEMANTICS.md section 16)
-----------------------------------------------------
 P1. State: per partition the log, a tuple of the events of its records
     (its length is the tuple's); per group and partition (owner, epoch,
     committed, position), the owner an instance index from 0, initially
     p mod K with p and the instance both counted from 0 (so p1 starts
     with instance 1); per instance (partition, offset, epoch, fetched),
     all 0 while the instance is idle.  With the bag all of these are
     constants (no partitions), so a bag scenario's states are unchanged.
 P2. Keys that only mean something for the partitioned broker are refused
     with the bag when they say anything but the default (section 16: "a
     bag refuses every value of this section's keys but the default"):
     broker.partitions other than 1, broker.commit_fencing other than
     true, a group's commit other than "after" (and its on_failure other
     than "retry_in_place", P19), an event's partition (it has no default:
     any value is refused, 1 included, as the checker does), a nonzero
     faults.rebalances, no_offset_skipped and committed_by_owner.
     applied_in_key_order is accepted with either broker.  (A first
     version refused these keys whatever their value, as the page then
     said.)
 P3. Refused with the partitioned broker: any duration (timed scenario),
     a nonzero faults.redeliveries or faults.lost_broker_writes, a budget
     of "any" (faults.rebalances included), and lease_token relays without
     a lease and without a claim bound (they can send for ever; the logs
     would grow without bound and section 14 does not abstract them).
     broker.dedup = "producer_session" (untimed, T2) is accepted: its drop
     decides whether a record is appended.
 P4. part(e): the event's partition (an integer 1..P, else refused) when
     it gives one; else the key's position in first appearance, from 0,
     mod P; else the event's index in the file, from 0, mod P (e1 -> p1).
 P5. A send the broker accepts appends a record to part(e)'s log and adds
     1 to offered[e]; ready stays 0.
 P6. consume(g, i, e) is generated once per event, in event order, when i
     owns part(e), position < length and the record at position is e.
     commit = "after": the first step runs as for the bag; "before": the
     commit of j + 1 (always accepted: the fetching owner under the current
     epoch) and midway with fetched = 1, memo 0.  step with fetched = 1
     runs the first step.  acknowledge commits j + 1 only with "after";
     ack_lost needs "after"; crash_consumer (midway) sets position =
     committed for every partition the instance owns at the crash (not the
     partition of its record if it lost it); redeliver never.
 P7. rebalance(g, p, i): after every other action (the bag's order, then
     the relay styles', then these), by group, partition, instance; needs
     rebalances > 0 and owner != i, so never with one instance.  It is a
     fault (it spends a budget): an at-rest state has none left, and it is
     marked a fault for the fairness check.  Its action class (must_fire)
     is "rebalance".
 P8. A commit of o by instance i for its record of partition p fetched
     under epoch x: current = owner = i and epoch = x.  Accepted when
     current or commit_fencing is off: committed = o (even lower); an
     accepted commit that is not current sets stale_commit.  Rejected:
     nothing changes (the instance still becomes idle).
 P9. done[g][p][j] (a bit mask per group and partition) is set when a step
     leaves the instance holding: the consume of a one-step strategy with
     commit = "after", the step after fetched for a one-step strategy, or
     the last step of a longer one.  no_offset_skipped: every j below
     committed has its bit set or is the (partition, offset) of a non-idle
     (midway or holding) instance of the group.
P10. applied[g][k] (both brokers): after each handler step (a consume that
     runs one, or a step) of group g on event e with a key, when any of the
     group's durable tables (effects, inbox, ledger, sent, version, cache,
     its declared tables) differs from before the step, applied[g][key(e)]
     = the rank of e among the events of its key in file order (from 1).
     Events without a key are not tracked.  applied_in_key_order (a
     transition invariant) fails on a transition that lowers any cell.  It
     needs a group and at least one event with a key; the other two need a
     partitioned broker and a group.
P11. Observation cells (applied, done, stale_commit) are part of the
     state only when the scenario's invariants read them; otherwise they
     are empty tuples.  They are read by the built-in that reads them
     (applied_in_key_order, no_offset_skipped, committed_by_owner) when
     check.invariants lists it, and by an expression with a read of
     applied, processed or stale_commit that reaches a group whose
     strategy declares no table of that name (P12): the GROUP named, else
     a group the invariant is checked for.  An expression the scenario
     declares keeps its cells also with check = false (LANGUAGE.md: "a
     scenario whose invariants read one keeps it"; docs/SEMANTICS.md
     section 16 says "checks"; the checker keeps them, as found by
     comparing hand-made scenarios with it); a replaced built-in's
     definition only when listed.  A read that reaches no group (groups
     matching none) keeps nothing.  Once kept, a cell is kept for every
     group, as for the built-in, even when the reads reach one group only
     (the checker's counts agree with this, not with per-group cells).
     check_pinned.py --declared-invariants replaces these three built-ins
     too by scenarios/invariants/NAME.toml (L8).
P12. Invariant expressions (LANGUAGE.md, "Invariant expressions"): with
     the partitioned broker, `partitions` binds `partition`, the values
     "p1".."pP" (text; a quoted "pN" with N > P, or any other text, is an
     error when read as a partition); `records` binds `record`, every
     (partition, offset) with offset 0..15 (the most a partition holds),
     partitions in order, offsets in order within each; record.partition
     is the partition's text, record.offset the integer.  Group tables:
     committed[partition] = committed[g][p]; stale_commit[partition] =
     stale_commit[g][p]; processed[record] = done[g][p][j];
     in_flight[record] = some non-idle (midway or holding) instance of g
     works on (p, j), whatever the epoch it fetched under; a record at or
     past the partition's length is neither processed nor in flight.
     applied[key] = applied[g][k], on either broker; an event's missing
     key reads 0 (an empty cell), a quoted key no event has is an error.
     A strategy's own table of one of these five names hides it in that
     group (LANGUAGE.md names only the three observation cells' names
     there; the reference hides all five).  With the bag, the domains
     partitions and records, and committed, stale_commit, processed and
     in_flight, are errors (at load for the scenario's own invariants,
     checked or not, and the checked definitions).

PRODUCER RETRIES (docs/SEMANTICS.md section 16.1)
-------------------------------------------------
P13. State: retry[r] per relay (the event from 1, 0 for none) and the
     send_failures left, both carried only when [faults] send_failures is
     above 0: otherwise an empty tuple and 0, and send_fails / retry_send
     are never generated, so every other scenario's counts, transitions
     and traces are what they were.  relay.max_in_flight (1..5, default 1)
     and relay.idempotent_producer (a boolean, default false) change
     nothing without a send failure.  max_in_flight 2, 3, 4 and 5 are one
     behaviour: the model keeps at most one failed write per relay
     (send_fails needs retry[r] = 0), so only "1" and "more than 1"
     differ.
P14. With the bag, relay.max_in_flight other than 1 and
     relay.idempotent_producer other than false are refused (their
     defaults are accepted, as P2's are) and faults.send_failures when
     nonzero (as P2 does for rebalances).
     faults.send_failures is 0..15; "any" is refused with either broker.
     The 16-record limit of a partition (section 16) is not checked here
     (nor for section 16 itself); a failed write and its retry append one
     record, as the send they replace.
P15. max_in_flight = 1: after send_fails(r) the relay stays claimed(e, t)
     with retry[r] = e, and until retry_send(r) neither send(r) nor
     send_ack_lost(r) is enabled ("does nothing else until the retry").
     crash_relay(r) still is (a crash is not something the relay does):
     the relay becomes idle and retry[r] = 0, the row unpublished, its
     lease active (orphaned) as after any crash.
P16. max_in_flight > 1: send_fails(r) leaves the relay sent(e, t), so it
     may complete the row (published, not yet offered), claim another row
     and send it.  With idempotent_producer, while retry[r] holds an event
     of partition p, send(r) and send_ack_lost(r) of an event of p are not
     enabled, the failed event itself included (a row_lock relay whose
     commit failed may claim it again, as may a fenced-out lease_token
     relay): section 16.1 now says so ("of any event of p (the failed one
     included, claimed again)"), as do its first bullet and Kafka's
     sequence numbers.  (An earlier page said "of another event of p"; a
     first version of this reference read it so, and the checker differed
     from it there.)  Other partitions, other relays: not blocked.
P17. retry_send(r), enabled whenever retry[r] != 0 (whatever the relay's
     phase, lease or fencing): the broker receives the copy of e =
     retry[r] as for a send (_offer: producer-session deduplication may
     drop it, and then the class send_deduplicated is not reported for
     it), retry[r] = 0, and when the relay is claimed(e, t') with that
     event, whatever its token (a relay that claimed the row again after
     a failed commit included), it becomes sent(e, t').  crash_relay(r)
     sets retry[r] = 0 but keeps its guard: an idle relay with a write
     waiting cannot crash (lease_token, row_lock, sequence_cursor; section
     16.1: "An idle relay cannot crash (section 3), so the retry of a
     relay that has gone idle always lands").  A cdc_offset relay can,
     when position > offset (section 11's guard, which 16.1's sentence
     does not mention), and that crash loses the retry too ("a relay
     crash loses the write waiting for its retry"): the checker agrees
     (tests/reference/partitioned/retry-crash.cdc_offset.in-flight-5).
P18. Successor order: in each relay's block, claim(r, e) per event, send,
     send_ack_lost, complete, crash_relay, then send_fails(r),
     retry_send(r) (commit_fails and flush_offset stay in the later relay
     loop).  send_fails is a fault (it spends a budget; U5, section 15);
     retry_send is not.  Action classes: send_fails, retry_send.

HANDLER FAILURES AND RETRY TOPICS (docs/SEMANTICS.md section 16.2)
------------------------------------------------------------------
P19. Configuration: [faults] handler_failures (0..15; "any" refused, as
     every "any" budget is with the partitioned broker) and a group's
     on_failure, "retry_in_place" (default) or "retry_topic" (anything
     else refused).  With the bag a nonzero handler_failures and
     on_failure = "retry_topic" are refused, "retry_in_place" accepted
     (P2).  State: the budget left (F_HFAIL), an int that stays 0 when
     the budget is 0, and the group's retry topic in the bag's
     ready[g][e] (F_READY), 0 in a group without a retry topic; so with
     handler_failures = 0 no state, transition or trace changes
     (consume_fails needs the budget, consume_retry a copy).
P20. consume_fails(g, i, e): enabled exactly when consume(g, i, e) of the
     partition is (instance idle, owner of part(e), a record at its
     position, that record e), and handler_failures > 0, whatever the
     group's commit mode (with commit = "before" the handler would run
     at the step after the fetch; the page puts the failure at the
     consume, and the checker agrees).  It spends one.  retry_in_place:
     nothing else changes (no fetch and no commit, with commit = "before"
     too: position, instance and tables as they were).  retry_topic:
     done[g][p][j] = 1 (when kept, P11), position = j + 1, committed =
     j + 1 even when a zombie's unfenced commit had set it higher (no
     fencing test, so never stale_commit), ready[g][e] += 1;
     the instance stays idle and no handler step runs (so applied does
     not move).  It is a fault (U5, section 15), action class
     consume_fails.
P21. consume_retry(g, i, e): a group with a retry topic, instance idle,
     ready[g][e] > 0, any instance (no owner test).  The bag's consume:
     ready -= 1 and the first step runs whatever the group's commit mode
     (no fetched stage: no offset to commit before it), then holding or
     midway, applied observed as for any step (P10).  The instance's
     record is "no partition": (partition, offset, epoch, fetched) =
     (-1, 0, 0, 0), distinct from every partition record, so it is never
     "in flight" for no_offset_skipped or in_flight[record], and its
     last step marks no done bit.  Action class consume_retry.
P22. An instance on a retry-topic record: step as the bag's;
     acknowledge: idle, no commit; ack_lost (A > 0, holding, whatever the
     group's commit mode: it is the bag's acknowledgement, not an offset
     commit): ready[g][e] += 1, idle; crash_consumer (Q > 0, midway):
     ready[g][e] += 1, idle, and every partition the instance owns
     restarts from its committed offset (section 16).  A retry-topic
     record cannot fail again: consume_fails is "as consume on the
     partition" only.  redeliver: never (section 16).
P23. Successor order: after the rebalance actions (P7), for each group and
     each of its instances, consume_fails(g, i, e) for each event, then,
     in a group with a retry topic, consume_retry(g, i, e) for each event
     (both in the instance's block: consume_retry(g, 1, e) comes before
     consume_fails(g, 2, e'), which decides the printed trace of a
     hand-made scenario where both end a shortest violation; the
     checker prints the same).
"""

import itertools
import json
import math
import re
import sys
import tomllib
from collections import deque
from pathlib import Path

import fair_components as fairness
import reference_language as lang

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
# docs/SEMANTICS.md section 16 (P1..); check_pinned.py --declared-invariants
# replaces these too by their expressions (P11).
PARTITION_SAFETY = ("no_offset_skipped", "committed_by_owner")
PARTITION_TRANSITION = ("applied_in_key_order",)

# Actions that spend a budget (docs/SEMANTICS.md section 15); expire is one
# when premature (Model.is_fault).
FAULT_ACTIONS = ("send_ack_lost", "crash_relay", "ack_lost", "crash_consumer",
                 "redeliver", "consumer_outage", "database_outage",
                 "commit_fails", "lose_write", "rebalance", "send_fails",
                 "consume_fails")

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
F_BUDGET = 15     # (X, C, P, A, Q, V, F, B): F and B from the relay styles
B_X, B_C, B_P, B_A, B_Q, B_V, B_F, B_B = range(8)
BUDGET_KEYS = ("premature_expiries", "relay_crashes", "lost_publish_acks",
               "lost_consumer_acks", "consumer_crashes", "redeliveries",
               "failed_commits", "lost_broker_writes")
ANY = "any"
# Timed cells (docs/SEMANTICS.md section 8 / model/TIME.md).  In an untimed
# scenario they are constant zeros and never change, so they do not change the
# counts.
F_CLOCK = 16      # per event: lease / poll clock
F_WINDOW = 17     # per event: copy age (dedup window)
F_RETRYING = 18   # per relay: producer session retrying
F_IAGE = 19       # per group: per event inbox row age
F_PARKED = 20     # per group: per event PK_NONE / PK_DELAYED / PK_DEAD
F_ATTEMPTS = 21   # per group: per event failed deliveries
F_PAGE = 22       # per group: per event parking age
F_DOWN = 23       # per group: units left of the consumer outage
F_DBDOWN = 24     # int: units left of the database outage
F_NOW = 25        # int: units since the start (0 when there is no `now`)
F_TBUDGET = 26    # (consumer_outages, database_outages)
TB_CO, TB_DO = 0, 1
# Relay styles, broker durability, message identity (constant zeros unless the scenario uses the feature):
F_PENDING = 27    # per event: 1 while its source transaction is open
F_LOGPOS = 28     # per event: place in the commit log (cdc, during_run)
F_CURSOR = 29     # last_seen (sequence_cursor) or flushed offset (cdc)
F_POS = 30        # cdc: how far the connector has read
# LANGUAGE.md (constant zeros unless the scenario uses the feature):
F_DECL = 31       # per group: per declared table: per cell
F_KEYAGE = 32     # per group: per event, age of the last keyed call let through
F_BEGUN = 33      # per event: age_sweeper (B8) or inline_dispatch (B9): the
                  # dispatch (pass) has begun
F_SCLOCK = 34     # per relay: age_sweeper, units since its send began
# The partitioned broker (docs/SEMANTICS.md section 16; P1..).  With the bag
# every one of these is a constant (empty tuples, 0), so a bag scenario has
# exactly the states it had; F_APPLIED is the exception, present with either
# broker when applied_in_key_order is checked.
F_LOG = 35        # per partition: tuple of the events of its records
F_PGRP = 36       # per group: per partition (owner, epoch, committed,
                  # position), the owner an instance index from 0
F_PINST = 37      # per group: per instance (partition, offset, epoch,
                  # fetched) of the record it works on; zeros while idle
F_APPLIED = 38    # per group: per key, applied[g][k] (only when checked)
F_DONE = 39       # per group: per partition, bit j = done[g][p][j]
                  # (only when no_offset_skipped is checked)
F_STALE = 40      # per group: per partition, stale_commit[g][p] (only
                  # when committed_by_owner is checked)
F_REBAL = 41      # int: rebalances left
# Producer retries (docs/SEMANTICS.md section 16.1; P13..).  Both constant
# (an empty tuple, 0) unless [faults] send_failures > 0, so every other
# scenario has exactly the states it had.
F_RETRY = 42      # per relay: retry[r], the event (from 1) whose failed
                  # write waits for its retry, 0 for none
F_SFAIL = 43      # int: send_failures left
# Handler failures (docs/SEMANTICS.md section 16.2; P19..).  0 unless
# [faults] handler_failures > 0; the retry topics live in F_READY.
F_HFAIL = 44      # int: handler_failures left
# The record of an instance working on a retry-topic copy: "no partition"
# (P21), in F_PINST.
RETRY_TOPIC_RECORD = (-1, 0, 0, 0)
# parked
PK_NONE, PK_DELAYED, PK_DEAD = 0, 1, 2

DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
MAX_UNITS = 10000


def parse_duration(text, where):
    """'30s', '5m', '1h', '7d' or sums of those ('1h30m') -> seconds (T1)."""
    if not isinstance(text, str):
        raise ValueError("%s: expected a duration string, got %r"
                         % (where, text))
    t = text.strip()
    m = re.fullmatch(r"(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?"
                     r"(?:([0-9]+)s)?", t)
    if not t or not m:
        raise ValueError("%s: %r is not a duration (e.g. '30s', '5m', "
                         "'1h30m': units largest first, each at most once)"
                         % (where, text))
    return sum(int(n) * DURATION_UNITS[u]
               for n, u in zip(m.groups(), "dhms") if n is not None)


def refuse_unless_default(table, prefix, defaults):
    """The partitioned broker's keys on a bag: each (key, default) of
    `defaults` that `table` sets to another value is refused (P2, P14)."""
    for key, default in defaults:
        if key in table and (table[key] != default
                             or type(table[key]) is not type(default)):
            raise ValueError("%s.%s: only with broker.delivery = "
                             "'partitioned'" % (prefix, key))


def fault_budget(faults, key):
    """A fault budget of [faults]: a whole number, or "any" (U1), carried
    in the state as 1."""
    v = faults.get(key, 0)
    if v == ANY:
        return 1
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError("faults.%s: expected a whole number or \"any\", "
                         "got %r" % (key, v))
    return v


def builtin_kind(strategy):
    return strategy.split(".")[0]


class Model:
    def __init__(self, cfg, base=".", declared_builtins=None,
                 declared_invariants=None):
        """base: the scenario's folder (strategy files are relative to it);
        declared_builtins: a folder of strategy files that replace the nine
        built-ins; declared_invariants: a folder of invariant files that
        replace the thirteen built-in invariants (the cross-checks of
        check_pinned.py --declared)."""
        self.declared_invariants = declared_invariants
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
            prog = None
            if isinstance(s, dict):
                prog = lang.load_strategy(Path(base) / s["file"])
            elif s not in STRATEGIES:
                raise ValueError("unknown strategy %r" % s)
            elif declared_builtins is not None:
                prog = lang.load_strategy(Path(declared_builtins)
                                          / (s + ".toml"))
            grp = {"name": g.get("name", "g%d" % (k + 1)),
                   "strategy": prog.name if prog else s, "prog": prog,
                   "instances": int(g.get("instances", 1))}
            if prog:
                grp["kind"], grp["has_inbox"] = prog.kind, prog.has_inbox
                grp["two"] = len(prog.steps) >= 2
            else:
                grp["kind"], grp["has_inbox"] = builtin_kind(s), s in HAS_INBOX
                grp["two"] = s in TWO_STEP
            self.groups.append(grp)
        sw = cfg.get("switches", {})
        self.lease_on = bool(sw.get("lease", True))
        self.fencing = bool(sw.get("fencing", True))
        f = cfg.get("faults", {})
        # U1: a budget of "any" is carried as 1 and never spent.
        self.any_budgets = {b for b, key in enumerate(BUDGET_KEYS)
                            if f.get(key) == ANY}
        self.budget0 = tuple(fault_budget(f, key) for key in BUDGET_KEYS)
        rl = cfg.get("relay", {})
        self.style = rl.get("style", "lease_token")
        self.per_attempt = rl.get("message_id", "outbox_id") == "per_attempt"
        self.during_run = cfg.get("source", {}).get("commits") == "during_run"
        self._init_inline_dispatch(cfg, rl)
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
            if g["kind"] in ("projection", "cache"):
                if any(k is None for k in self.ev_key):
                    raise ValueError("group %s needs a key on every event"
                                     % g["name"])
        self.nE, self.nR, self.nG = (len(self.events), len(self.relays),
                                     len(self.groups))
        self.event_index = {ev["name"]: e for e, ev in enumerate(self.events)}
        self.nK = len(self.keys)
        self._init_time(cfg)
        self._init_language(cfg)
        self._init_abstraction(cfg)
        self._init_broker(cfg)
        self._init_retries(cfg)
        self._init_failures(cfg)

    def _init_inline_dispatch(self, cfg, rl):
        """docs/SEMANTICS.md section 11, inline_dispatch (B9): the key
        relay.dispatch_waits_for_commit and the style's refusals."""
        waits = rl.get("dispatch_waits_for_commit", True)
        if not isinstance(waits, bool):
            raise ValueError("relay.dispatch_waits_for_commit: expected a "
                             "boolean, got %r" % (waits,))
        self.inline = self.style == "inline_dispatch"
        self.dispatch_waits = waits
        if not waits and not self.inline:
            raise ValueError("relay.dispatch_waits_for_commit: only with "
                             "relay.style = 'inline_dispatch'")
        if not self.inline:
            return
        if not self.during_run:
            raise ValueError("relay.style = 'inline_dispatch' needs "
                             "source.commits = 'during_run'")
        if "switches" in cfg:
            raise ValueError("switches: only with relay.style = "
                             "'lease_token'")
        if fault_budget(cfg.get("faults", {}), "premature_expiries") != 0:
            raise ValueError("faults.premature_expiries: only with "
                             "relay.style = 'lease_token'")
        if "claims" in cfg.get("bounds", {}):
            raise ValueError("bounds.claims: only with relay.style = "
                             "'lease_token'")
        if fault_budget(cfg.get("faults", {}), "failed_commits") != 0:
            raise ValueError("faults.failed_commits: only with relay.style "
                             "= 'row_lock'")

    def _broker_budget(self, cfg, key):
        """A budget of the partitioned broker's (sections 16.1 and 16.2):
        a number 0..15; "any" is refused."""
        budget = cfg.get("faults", {}).get(key, 0)
        if budget == ANY:
            raise ValueError("faults.%s: an \"any\" budget does not combine "
                             "with broker.delivery = 'partitioned'" % key
                             if self.partitioned else
                             "faults.%s: only with broker.delivery = "
                             "'partitioned'" % key)
        if isinstance(budget, bool) or not isinstance(budget, int) \
                or not 0 <= budget <= 15:
            raise ValueError("faults.%s: expected 0..15, got %r"
                             % (key, budget))
        return budget

    def _init_failures(self, cfg):
        """docs/SEMANTICS.md section 16.2: [faults] handler_failures and a
        group's on_failure (P19)."""
        budget = self._broker_budget(cfg, "handler_failures")
        if budget != 0 and not self.partitioned:
            raise ValueError("faults.handler_failures: only with "
                             "broker.delivery = 'partitioned'")
        self.handler_failures0 = budget
        for k, (g, grp) in enumerate(zip(cfg.get("groups", []),
                                          self.groups)):
            mode = g.get("on_failure", "retry_in_place")
            if mode not in ("retry_in_place", "retry_topic"):
                raise ValueError("groups[%d].on_failure: unknown %r; "
                                 "expected 'retry_in_place' or "
                                 "'retry_topic'" % (k + 1, mode))
            if mode == "retry_topic" and not self.partitioned:
                raise ValueError("groups[%d].on_failure: 'retry_topic' only "
                                 "with broker.delivery = 'partitioned'"
                                 % (k + 1))
            grp["retry_topic"] = mode == "retry_topic"

    def _init_retries(self, cfg):
        """docs/SEMANTICS.md section 16.1: [relay] max_in_flight and
        idempotent_producer, [faults] send_failures; partitioned broker
        only (P13..P18)."""
        rl = cfg.get("relay", {})
        budget = self._broker_budget(cfg, "send_failures")
        if not self.partitioned:
            # P14: refused with the bag unless they say the default, as
            # section 16 refuses its keys.
            refuse_unless_default(rl, "relay", (("max_in_flight", 1),
                                                ("idempotent_producer", False)))
            if budget != 0:
                raise ValueError("faults.send_failures: only with "
                                 "broker.delivery = 'partitioned'")
        mif = rl.get("max_in_flight", 1)
        if isinstance(mif, bool) or not isinstance(mif, int) \
                or not 1 <= mif <= 5:
            raise ValueError("relay.max_in_flight: expected 1..5, got %r"
                             % (mif,))
        idem = rl.get("idempotent_producer", False)
        if not isinstance(idem, bool):
            raise ValueError("relay.idempotent_producer: expected a boolean")
        self.max_in_flight, self.idempotent = mif, idem
        self.send_failures0 = budget
        # P13: the cell and the actions exist only with a budget.
        self.retries = budget > 0

    def _init_broker(self, cfg):
        """docs/SEMANTICS.md section 16: [broker] delivery, partitions,
        commit_fencing; a group's commit; an event's partition; [faults]
        rebalances; and the observation cells of the three invariants it
        adds, present only when the scenario's invariants read them
        (P1..P12)."""
        br = cfg.get("broker", {})
        f = cfg.get("faults", {})
        cfg_groups = cfg.get("groups", [])
        delivery = br.get("delivery", "bag")
        if delivery not in ("bag", "partitioned"):
            raise ValueError("broker.delivery: unknown %r; expected 'bag' "
                             "or 'partitioned'" % (delivery,))
        self.partitioned = delivery == "partitioned"
        checked = set(cfg.get("check", {}).get("invariants", []))
        rebal = f.get("rebalances", 0)
        if rebal != ANY and (isinstance(rebal, bool)
                             or not isinstance(rebal, int)
                             or not 0 <= rebal <= 15):
            raise ValueError("faults.rebalances: expected 0..15, got %r"
                             % (rebal,))
        # applied_in_key_order: a group, events with keys (P10); either
        # broker.
        if "applied_in_key_order" in checked and (self.nG == 0
                                                   or self.nK == 0):
            raise ValueError("check.invariants: applied_in_key_order needs "
                             "a group and events with keys")
        # The invariants checked (L11), by name: what keeps an observation
        # cell (P11).
        unchecked = {n for n, inv in self.decl_invs.items()
                     if n in self.scenario_invs and not inv.check}
        self.checked_names = [n for n in checked if n not in unchecked] \
            + [n for n in self.checked_decl if n not in checked]
        self.obs_applied = self._observes("applied")
        rank, seen = [], {}
        for e in range(self.nE):
            k = self.ev_key[e]
            if k is None:
                rank.append(0)
            else:
                seen[k] = seen.get(k, 0) + 1
                rank.append(seen[k])
        self.key_rank = rank          # 1 for the first event of its key
        if not self.partitioned:
            # P2: every partitioned-only key is refused with the bag,
            # unless it says the default.
            refuse_unless_default(br, "broker", (("partitions", 1),
                                                 ("commit_fencing", True)))
            for k, g in enumerate(cfg_groups):
                if g.get("commit", "after") != "after":
                    raise ValueError("groups[%d].commit: only with "
                                     "broker.delivery = 'partitioned'"
                                     % (k + 1))
            for k, ev in enumerate(self.events):
                if "partition" in ev:
                    raise ValueError("events[%d].partition: only with "
                                     "broker.delivery = 'partitioned'"
                                     % (k + 1))
            if rebal != 0:
                raise ValueError("faults.rebalances: only with "
                                 "broker.delivery = 'partitioned'")
            for name in PARTITION_SAFETY:
                if name in checked:
                    raise ValueError("check.invariants: %s needs a "
                                     "partitioned broker" % name)
            self._refuse_broker_reads_on_bag()
            self.nP, self.rebalances0 = 0, 0
            self.obs_done = self.obs_stale = False
            for grp in self.groups:
                grp["commit_before"] = False
            return
        P = br.get("partitions", 1)
        if isinstance(P, bool) or not isinstance(P, int) or not 1 <= P <= 4:
            raise ValueError("broker.partitions: expected 1..4, got %r"
                             % (P,))
        self.nP = P
        fencing = br.get("commit_fencing", True)
        if not isinstance(fencing, bool):
            raise ValueError("broker.commit_fencing: expected a boolean")
        self.commit_fencing = fencing
        # Refused with the partitioned broker (section 16; P3).
        if self.timed:
            raise ValueError("broker.delivery: 'partitioned' does not "
                             "combine with durations")
        for key in ("redeliveries", "lost_broker_writes"):
            if f.get(key, 0) != 0:
                raise ValueError("faults.%s: not with broker.delivery = "
                                 "'partitioned'" % key)
        if any(v == ANY for v in f.values()):
            raise ValueError("faults: an \"any\" budget does not combine "
                             "with broker.delivery = 'partitioned'")
        if self.abstract:
            # lease_token relays without a lease and without a claim bound
            # can send for ever: the logs would grow without bound (P3).
            raise ValueError("broker.delivery: 'partitioned' needs a lease "
                             "or a claim bound (bounds.claims), or the "
                             "logs grow without bound")
        self.rebalances0 = rebal
        for k, (g, grp) in enumerate(zip(cfg_groups, self.groups)):
            mode = g.get("commit", "after")
            if mode not in ("after", "before"):
                raise ValueError("groups[%d].commit: unknown %r; expected "
                                 "'after' or 'before'" % (k + 1, mode))
            grp["commit_before"] = mode == "before"
        # part(e), from 0 (P4)
        self.part = []
        for e, ev in enumerate(self.events):
            if "partition" in ev:
                v = ev["partition"]
                if isinstance(v, bool) or not isinstance(v, int) \
                        or not 1 <= v <= P:
                    raise ValueError("events[%d].partition: expected 1..%d,"
                                     " got %r" % (e + 1, P, v))
                self.part.append(v - 1)
            elif self.ev_key[e] is not None:
                self.part.append(self.ev_key[e] % P)
            else:
                self.part.append(e % P)
        for name in PARTITION_SAFETY:
            if name in checked and self.nG == 0:
                raise ValueError("check.invariants: %s needs a group" % name)
        self.obs_done = self._observes("processed")
        self.obs_stale = self._observes("stale_commit")

    # Which built-in reads which observation cell (P10, P9, section 16).
    OBSERVED_BY = {"applied": "applied_in_key_order",
                   "processed": "no_offset_skipped",
                   "stale_commit": "committed_by_owner"}

    def _observes(self, table):
        """Whether the state keeps observation cell `table` (applied,
        processed: done, stale_commit): a checked built-in that reads it,
        or an expression of the scenario (checked or not) or a checked
        definition that does (P11)."""
        assert table in lang.OBSERVATION_TABLES
        names = self.checked_names + [n for n in self.scenario_invs
                                      if n not in self.checked_names]
        for name in names:
            if name in self.decl_invs:
                if self._reads_broker_table(self.decl_invs[name], table):
                    return True
            elif name == self.OBSERVED_BY[table]:
                return True
        return False

    def _table_groups(self, inv, gname):
        """The groups a read GROUP.TABLE[...] / TABLE[...] of invariant inv
        can reach: GROUP's, or else each group the invariant is checked
        for (none without `groups`: such a read is an error when
        evaluated)."""
        if gname is not None:
            return [self.group_index[gname]] \
                if gname in self.group_index else []
        return list(inv.group_ids or [])

    def _hides(self, g, table):
        """Group g's strategy declares a table of this name: it hides the
        broker's table of the name (LANGUAGE.md)."""
        prog = self.groups[g]["prog"]
        return prog is not None and table in prog.tables

    def _reads_broker_table(self, inv, table):
        """Invariant inv reads the broker's table `table` (not a declared
        table of that name) of some group."""
        return any(t == table and any(not self._hides(g, t) for g in
                                      self._table_groups(inv, gname))
                   for gname, t in lang.table_reads(inv.expr))

    def _refuse_broker_reads_on_bag(self):
        """With the bag: the scenario's own invariants, and the checked
        ones a definition replaces, may not range over partitions or
        records nor read the partition tables (applied exists with either
        broker)."""
        names = self.scenario_invs + [n for n in self.checked_names
                                      if n not in self.scenario_invs
                                      and n in self.decl_invs]
        for name in names:
            inv = self.decl_invs[name]
            for d in lang.domains_read(inv.expr):
                if d in lang.BROKER_DOMAINS:
                    raise ValueError("invariant %s: domain %s needs a "
                                     "partitioned broker" % (name, d))
            for t in lang.BROKER_TABLES:
                if t != "applied" and self._reads_broker_table(inv, t):
                    raise ValueError("invariant %s: table %s needs a "
                                     "partitioned broker" % (name, t))

    def _init_abstraction(self, cfg):
        """docs/SEMANTICS.md section 14 (U2): with a budget of "any", or
        lease_token relays without a lease and without a claim bound, the
        exhaustive search explores the abstract space."""
        unbounded = bool(self.any_budgets or self.any_tbudgets)
        no_lease = self.style == "lease_token" and not self.lease_on \
            and self.claim_bound is None
        self.abstract = unbounded or no_lease
        self.renumber = self.abstract and self.claim_bound is None
        if unbounded:
            for k, g in enumerate(cfg.get("groups", [])):
                if isinstance(g["strategy"], dict):
                    raise ValueError("groups[%d].strategy: a declared "
                                     "strategy cannot be combined with a "
                                     "fault budget of \"any\"" % (k + 1))
        if not self.abstract:
            return
        for grp in self.groups:
            prog = grp["prog"]
            if prog is not None and any(spec["kind"] == "number"
                                        for spec in prog.tables.values()):
                # its counts are not abstracted: the abstract space need
                # not be finite
                raise ValueError("group %s: a number table of its own in "
                                 "the abstract search (an \"any\" budget, "
                                 "or no lease and no claim bound)"
                                 % grp["name"])

    # ------------------------------------------------------------------
    def _init_gaps(self, cfg, rl, dur):
        """docs/SEMANTICS.md section 11, "Gaps", and model/TIME.md, "The
        gap-waiting cursor": relay.gaps, relay.gap_timeout (G) and
        source.commit_within (Tx), and their refusals (B10).  Returns the
        two durations in seconds (None when unset); dur records them for
        the unit."""
        src = cfg.get("source", {})
        gaps = rl.get("gaps", "pass_over")
        if "gaps" in rl and self.style != "sequence_cursor":
            raise ValueError("relay.gaps: only with relay.style = "
                             "'sequence_cursor'")
        if gaps not in ("pass_over", "wait"):
            raise ValueError("relay.gaps: unknown %r; expected 'pass_over' "
                             "or 'wait'" % (gaps,))
        self.gap_wait = gaps == "wait"
        if not self.gap_wait:
            for table, key, where in ((rl, "gap_timeout", "relay"),
                                      (src, "commit_within", "source")):
                if key in table:
                    raise ValueError("%s.%s: only with relay.gaps = 'wait'"
                                     % (where, key))
            return None, None
        gap_s = dur(rl, "gap_timeout", "relay.gap_timeout")
        commit_s = dur(src, "commit_within", "source.commit_within")
        # TIME.md: the style takes time.horizon and time.clocks besides G
        # and Tx; the other durations, outages, broker deduplication,
        # per-attempt ids and lost broker writes are refused.
        tm, br, f = cfg.get("time", {}), cfg.get("broker", {}), \
            cfg.get("faults", {})
        for key in tm:
            if key not in ("horizon", "clocks"):
                raise ValueError("time.%s: not with relay.gaps = 'wait'" % key)
        for key in ("min_age", "send_time"):
            if key in rl:
                raise ValueError("relay.%s: not with relay.gaps = 'wait'"
                                 % key)
        if br.get("dedup", "none") != "none" or "window" in br:
            raise ValueError("broker.dedup: not with relay.gaps = 'wait'")
        for k, g in enumerate(cfg.get("groups", [])):
            for key in ("inbox_retention", "inbox_cleanup_every",
                        "redelivery", "dead_letter_redrive",
                        "dead_letter_retention", "idempotency_key_window"):
                if key in g:
                    raise ValueError("groups[%d].%s: not with relay.gaps = "
                                     "'wait'" % (k + 1, key))
        if rl.get("message_id", "outbox_id") == "per_attempt":
            raise ValueError("relay.message_id: 'per_attempt' not with "
                             "relay.gaps = 'wait'")
        for key in ("lost_broker_writes", "consumer_outages",
                    "database_outages"):
            if f.get(key, 0) != 0:
                raise ValueError("faults.%s: not with relay.gaps = 'wait'"
                                 % key)
        return gap_s, commit_s

    def _init_time(self, cfg):
        """docs/SEMANTICS.md section 8 as model/TIME.md specifies it."""
        tm = dict(cfg.get("time", {}))
        br = dict(cfg.get("broker", {}))
        f = cfg.get("faults", {})
        raw = []          # every duration of the scenario, in seconds

        def dur(table, key, where):
            if key not in table:
                return None
            v = parse_duration(table[key], where)
            raw.append(v)
            return v

        lease_s = dur(tm, "lease", "time.lease")
        poll_s = dur(tm, "poll", "time.poll")
        rl = cfg.get("relay", {})
        min_age_s = dur(rl, "min_age", "relay.min_age")
        send_time_s = dur(rl, "send_time", "relay.send_time")
        horizon_s = dur(tm, "horizon", "time.horizon")
        oc_s = dur(tm, "consumer_outage", "time.consumer_outage")
        od_s = dur(tm, "database_outage", "time.database_outage")
        gap_s, commit_s = self._init_gaps(cfg, rl, dur)
        clocks = tm.get("clocks", "capped")
        if clocks not in ("capped", "plain"):
            raise ValueError("time.clocks: %r; expected 'capped' or 'plain'"
                             % clocks)
        self.dedup = br.get("dedup", "none")
        if self.dedup not in ("none", "window", "producer_session"):
            raise ValueError("broker.dedup: unknown %r" % self.dedup)
        window_s = dur(br, "window", "broker.window")
        if (self.dedup == "window") != (window_s is not None):
            raise ValueError("broker.window: required with, and only with, "
                             "broker.dedup = 'window'")
        graw, kws = [], []
        for k, g in enumerate(cfg.get("groups", [])):
            w = "groups[%d]." % (k + 1)
            t = dur(g, "inbox_retention", w + "inbox_retention")
            i = dur(g, "inbox_cleanup_every", w + "inbox_cleanup_every")
            sched = g.get("redelivery")
            ds = None
            if sched is not None:
                if not isinstance(sched, list) or not sched:
                    raise ValueError(w + "redelivery: expected a non-empty "
                                     "array of durations")
                ds = [parse_duration(x, w + "redelivery[%d]" % (j + 1))
                      for j, x in enumerate(sched)]
                raw.extend(ds)
            dr = dur(g, "dead_letter_redrive", w + "dead_letter_redrive")
            dt = dur(g, "dead_letter_retention", w + "dead_letter_retention")
            kws.append(dur(g, "idempotency_key_window",
                           w + "idempotency_key_window"))
            if t is not None and not self.groups[k]["has_inbox"]:
                raise ValueError(w + "inbox_retention: only for credit "
                                 "strategies with an inbox")
            if i is not None and t is None:
                raise ValueError(w + "inbox_cleanup_every: needs "
                                 "inbox_retention")
            graw.append((t, i, ds, dr, dt))
        self.co0 = fault_budget(f, "consumer_outages")
        self.do0 = fault_budget(f, "database_outages")
        self.any_tbudgets = {b for b, key in ((TB_CO, "consumer_outages"),
                                              (TB_DO, "database_outages"))
                             if f.get(key) == ANY}
        if (self.co0 > 0) != (oc_s is not None):
            raise ValueError("faults.consumer_outages and time.consumer_outage"
                             " need each other")
        if (self.do0 > 0) != (od_s is not None):
            raise ValueError("faults.database_outages and time.database_outage"
                             " need each other")
        if lease_s is not None and not self.lease_on:
            raise ValueError("time.lease: needs switches.lease on")
        if clocks == "plain" and horizon_s is None:
            raise ValueError("time.clocks = 'plain' needs time.horizon")

        self.timed = bool(raw)
        unit = 0
        for v in raw:
            unit = math.gcd(unit, v)
        self.unit = unit or 1
        if raw and max(raw) // self.unit > MAX_UNITS:
            raise ValueError("largest duration is %d units; at most %d"
                             % (max(raw) // self.unit, MAX_UNITS))
        u = lambda v: None if v is None else v // self.unit
        self.plain = clocks == "plain"
        self.L = u(lease_s)                       # None: expire untimed
        self.P = u(poll_s) or 0
        self.horizon = u(horizon_s)
        self.sweeper = self.style == "age_sweeper"
        if self.style == "inline_dispatch" and (raw or self.dedup != "none"):
            raise ValueError("relay.style = 'inline_dispatch' does not "
                             "combine with durations or broker.dedup (B9)")
        self.has_clock = (lease_s is not None or poll_s is not None) \
            and not self.sweeper
        if self.sweeper:
            if min_age_s is None:
                raise ValueError("relay.min_age: required with age_sweeper")
            self.M = u(min_age_s)
            self.S = u(send_time_s) or 0
            self.sweep_due = self.M + self.P          # B8
        self.has_now = self.horizon is not None or self.plain
        # B10: the gap-waiting cursor's durations and its clock.
        self.G, self.Tx = u(gap_s), u(commit_s)
        self.gap_clock = self.gap_wait and self.timed
        self.gap_cap = max(self.G or 0, self.Tx or 0)
        self.W = u(window_s)
        self.Oc, self.Od = u(oc_s), u(od_s)
        for grp, kw in zip(self.groups, kws):
            grp["KW"] = u(kw)                     # None: keys kept forever
        for grp, (t, i, ds, dr, dt) in zip(self.groups, graw):
            grp["T"] = u(t)                       # None: no retention
            grp["I"] = max(u(i) or 0, 1)          # I': 1 when unset (T8)
            grp["delays"] = [x // self.unit for x in ds or []]
            grp["D"], grp["R"] = u(dr), u(dt)
            grp["dlq"] = dr is not None or dt is not None
            grp["park"] = bool(grp["delays"]) or grp["dlq"]
            # strict retention: a dead letter is dropped at age R + 1
            r1 = None if grp["R"] is None else grp["R"] + 1
            grp["park_cap"] = max(grp["delays"] + [x for x in (grp["D"], r1)
                                                  if x is not None], default=0)
            grp["dead_wait"] = max([x for x in (grp["D"], r1)
                                    if x is not None], default=0)

    # ------------------------------------------------------------------
    def _init_language(self, cfg):
        """LANGUAGE.md: events' own attributes, declared tables, the
        scenario's [[invariants]]."""
        self.num_attrs = {"version", "amount"}
        for ev in self.events:
            for a, v in ev.items():
                if isinstance(v, int) and not isinstance(v, bool):
                    self.num_attrs.add(a)
        self.group_index = {grp["name"]: g for g, grp in enumerate(self.groups)}
        self._init_domains()
        for grp in self.groups:
            prog = grp["prog"]
            if grp["KW"] is not None and not (prog and any(
                    a == ("call", True) for step in prog.steps
                    for _, a in step)):
                raise ValueError("group %s: idempotency_key_window needs a "
                                 "`call sent[event] with_key` in its "
                                 "handler" % grp["name"])
            if prog is None:
                continue
            for a in sorted(prog.attrs):
                for ev in self.events:
                    if a not in ev:
                        raise ValueError(
                            "group %s: strategy %s needs '%s' on every "
                            "event; event %s has none"
                            % (grp["name"], prog.name, a, ev["name"]))
            grp["cell_of"] = {}
            for t in prog.table_names:
                by = prog.tables[t]["by"]
                if by != "event" and by in self.domain_of \
                        and self.domain_of[by] != by:
                    raise ValueError(
                        "group %s: table %s is by %r, an attribute of "
                        "domain %r; write by = %r"
                        % (grp["name"], t, by, self.domain_of[by],
                           self.domain_of[by]))
                cells = self._cells(grp, t)
                grp["cell_of"][t] = {c: k for k, c in enumerate(cells)}
        self._init_initial(cfg)
        self.decl_invs = {}
        self.checked_decl = []       # declared here and checked (L11)
        for k, table in enumerate(cfg.get("invariants", []), start=1):
            inv = lang.compile_invariant(table, k)
            if inv.name in SAFETY + TRANSITION + AT_REST + PARTITION_SAFETY \
                    + PARTITION_TRANSITION or inv.name in self.decl_invs:
                raise ValueError("invariants[%d].name: %r is taken"
                                 % (k, inv.name))
            inv.group_ids = None if inv.groups is None else \
                self._matching_groups(inv.groups, k)
            self.decl_invs[inv.name] = inv
            if inv.check:
                self.checked_decl.append(inv.name)
        self.scenario_invs = list(self.decl_invs)    # the file's own
        if self.declared_invariants is not None:
            for name in SAFETY + TRANSITION + AT_REST + PARTITION_SAFETY \
                    + PARTITION_TRANSITION:
                with open(Path(self.declared_invariants) / (name + ".toml"),
                          "rb") as fh:
                    inv = lang.compile_invariant(tomllib.load(fh), 0)
                inv.group_ids = None if inv.groups is None else \
                    self._matching_groups(inv.groups, 0)
                self.decl_invs[name] = inv     # replaces the built-in

    def _matching_groups(self, specs, k):
        out = []
        for spec in specs:
            if spec == "all":
                out += range(self.nG)
            elif spec in lang.KINDS:
                out += self._groups_of(spec)
            elif spec in self.group_index:
                out.append(self.group_index[spec])
            else:
                raise ValueError("invariants[%d].groups: unknown %r"
                                 % (k, spec))
        return sorted(set(out))

    def _init_domains(self):
        """LANGUAGE.md, "Domains": the [domains] of every strategy of the
        scenario apply to the whole scenario (L9).  domain_of maps every
        attribute placed in a declared domain (and the domain's own name)
        to the domain; members lists each declared domain's attributes, the
        one named like the domain first."""
        self.domain_of, self.domain_members = {}, {}
        for grp in self.groups:
            prog = grp["prog"]
            if prog is None:
                continue
            for dname, attrs in prog.domains.items():
                members = self.domain_members.setdefault(dname, [dname])
                for a in [dname] + attrs:
                    if self.domain_of.get(a, dname) != dname:
                        raise ValueError(
                            "group %s: attribute %r is placed in domains "
                            "%r and %r; an attribute belongs to one domain"
                            % (grp["name"], a, self.domain_of[a], dname))
                    if a in self.num_attrs:
                        raise ValueError(
                            "group %s: domains.%s names %r, a number "
                            "attribute" % (grp["name"], dname, a))
                    self.domain_of[a] = dname
                    if a not in members:
                        members.append(a)

    def domain_values(self, domain):
        """The values of a domain: the distinct values of its attributes
        over the events, in order of first appearance (events in scenario
        order; within one event, the attribute named like the domain
        first, then the declared ones in the order listed).  A domain that
        no [domains] declares is the values of the attribute of its name."""
        attrs = self.domain_members.get(domain, [domain])
        out = []
        for ev in self.events:
            for a in attrs:
                if a in ev and ev[a] not in out:
                    out.append(ev[a])
        return out

    def attr_values(self, attr):
        """The values an aggregate over `ATTRs` ranges over: those of the
        domain named `attr`; an attribute placed in another domain is not a
        domain of its own."""
        if self.domain_of.get(attr, attr) != attr:
            raise ValueError("%ss: %r is an attribute of domain %r; write "
                             "%ss" % (attr, attr, self.domain_of[attr],
                                      self.domain_of[attr]))
        return self.domain_values(attr)

    def _cells(self, grp, table):
        by = grp["prog"].tables[table]["by"]
        if by == "event":
            return list(range(self.nE))
        return self.domain_values(by)

    def _init_initial(self, cfg):
        """scenarios/FORMAT.md, [initial]: starting values of declared
        cells, per group: { TABLE = { KEY = value } } with KEY a value of the
        table's domain or, for a table by event, an event name (L10)."""
        for grp in self.groups:
            prog = grp["prog"]
            grp["start"] = tuple(
                [0] * len(grp["cell_of"][t]) if prog else []
                for t in (prog.table_names if prog else []))
        initial = cfg.get("initial", {})
        if not isinstance(initial, dict):
            raise ValueError("initial: expected a table")
        for gname, tables in initial.items():
            if gname not in self.group_index:
                raise ValueError("initial.%s: no group %r" % (gname, gname))
            grp = self.groups[self.group_index[gname]]
            prog = grp["prog"]
            if prog is None or not prog.tables:
                raise ValueError("initial.%s: group %r declares no tables"
                                 % (gname, gname))
            if not isinstance(tables, dict):
                raise ValueError("initial.%s: expected a table" % gname)
            for t, cells in tables.items():
                if t not in prog.tables:
                    raise ValueError("initial.%s.%s: group %r declares no "
                                     "table %r" % (gname, t, gname, t))
                if not isinstance(cells, dict):
                    raise ValueError("initial.%s.%s: expected a table of "
                                     "starting values" % (gname, t))
                spec = prog.tables[t]
                k = prog.table_names.index(t)
                for key, v in cells.items():
                    where = "initial.%s.%s.%s" % (gname, t, key)
                    if spec["by"] == "event":
                        names = [ev["name"] for ev in self.events]
                        if key not in names:
                            raise ValueError("%s: no event %r; events are %s"
                                             % (where, key, names))
                        cell = names.index(key)
                    else:
                        cell = grp["cell_of"][t].get(key)
                        if cell is None:
                            raise ValueError(
                                "%s: no event carries %r; values are %s"
                                % (where, key, list(grp["cell_of"][t])))
                    if spec["kind"] == "row":
                        if not isinstance(v, bool):
                            raise ValueError("%s: a row table takes true "
                                             "or false" % where)
                    elif isinstance(v, bool) or not isinstance(v, int) \
                            or not -32768 <= v <= 32767:
                        raise ValueError("%s: a number table takes an "
                                         "integer in -32768..32767" % where)
                    grp["start"][k][cell] = int(v)
        for grp in self.groups:
            grp["start"] = tuple(tuple(c) for c in grp["start"])

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
            z, z, (0,) * self.nR,
            (z,) * G, (z,) * G, (z,) * G, (z,) * G,
            (0,) * G, 0, 0,
            (self.co0, self.do0),
            (1 if self.during_run else 0,) * E,
            (0,) * E, 0, 0,
            tuple(grp["start"] for grp in self.groups),
            (z,) * G,
            (0,) * E, (0,) * self.nR,
            # section 16 (constants with the bag but F_APPLIED)
            ((),) * self.nP,
            tuple(tuple((p % grp["instances"], 0, 0, 0)
                        for p in range(self.nP)) for grp in self.groups),
            tuple(((0, 0, 0, 0),) * grp["instances"] for grp in self.groups)
            if self.partitioned else (),
            ((0,) * K,) * G if self.obs_applied else (),
            ((0,) * self.nP,) * G if self.obs_done else (),
            ((0,) * self.nP,) * G if self.obs_stale else (),
            self.rebalances0,
            # section 16.1 (constants without send_failures)
            (0,) * self.nR if self.retries else (),
            self.send_failures0,
            # section 16.2 (0 without handler_failures)
            self.handler_failures0,
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
        if self.style == "inline_dispatch":
            # B9: the dispatch pass has not run; the row committed unless
            # the pass does not wait for the commit
            return (s[F_RELAYS][r][0] == R_IDLE and s[F_BEGUN][e] == 0
                    and (not s[F_PENDING][e] or not self.dispatch_waits)), \
                False
        if s[F_RELAYS][r][0] != R_IDLE or s[F_PENDING][e]:
            return False, False
        if self.style == "row_lock":
            busy = any(ph != R_IDLE and ev == e + 1
                       for (ph, ev, _) in s[F_RELAYS])
            return (s[F_PUB][e] == 0 and not busy), False
        if self.style == "sequence_cursor":
            above = [f for f in range(self.nE)
                     if f + 1 > s[F_CURSOR] and not s[F_PENDING][f]]
            if not above or above[0] != e:
                return False, False
            if self.gap_wait:
                # B10: every pending row between the cursor and e is stale
                for f in range(s[F_CURSOR], e):
                    if s[F_PENDING][f] and not self._stale(s, f):
                        return False, False
            return True, False
        if self.style == "cdc_offset":
            return self._log_place(s, e) == s[F_POS] + 1, False
        if s[F_PUB][e] != 0:
            return False, False
        if self.lease_on and s[F_LEASE][e] == L_ACTIVE:
            return False, False
        if self.claim_bound is not None and s[F_TOKEN][e] >= self.claim_bound:
            return False, True
        return True, False

    def _stale(self, s, f):
        """The gap at pending row f has timed out (B10)."""
        return self.G is not None and self.gap_clock \
            and s[F_CLOCK][f] >= self.G

    def bound_blocked(self, s):
        for r in range(self.nR):
            for e in range(self.nE):
                if self._claim_ok_but_bound(s, r, e)[1]:
                    return True
        return False

    # ------------------------------------------------------------------
    def _send_copy(self, s, e):
        s[F_OFFERED] = self._set(s[F_OFFERED], e, s[F_OFFERED][e] + 1)
        if self.partitioned:
            # section 16: a record appended to the log of part(e); the
            # bag's ready stays 0
            p = self.part[e]
            s[F_LOG] = self._set(s[F_LOG], p, s[F_LOG][p] + (e,))
            return
        s[F_READY] = tuple(self._set(rg, e, rg[e] + 1) for rg in s[F_READY])

    def _step(self, s, g, e, first):
        """Run the strategy's step on list-state s for group g, event e.
        Returns (done, private)."""
        if self.groups[g]["prog"] is not None:
            return True, self._run_declared(s, g, e, 0, 0)
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
        if self.groups[g]["prog"] is not None:
            return self._run_declared(s, g, e, 0, 0)
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
        """Runs the next step; returns the private data to keep while still
        midway (a declared handler of more than two steps), else None."""
        if self.groups[g]["prog"] is not None:
            kept = self._run_declared(s, g, e, priv[0], priv)
            return kept if kept != 0 else None
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

    # --- declared strategies (LANGUAGE.md) -----------------------------
    def _event_ref(self, v):
        """An event value: ('ev', index) or a quoted event name."""
        if isinstance(v, tuple) and v[0] == "ev":
            return v[1]
        if isinstance(v, str):
            for e, ev in enumerate(self.events):
                if ev["name"] == v:
                    return e
            raise ValueError("no event named %r" % v)
        raise ValueError("%r is not an event" % (v,))

    def _cell(self, g, table, idx):
        """Where TABLE[idx] of group g lives: (field, position) for the
        tables of docs/SEMANTICS.md, ("decl", table number, cell) for a
        declared one; None for an empty cell (an index no event has)."""
        if table in lang.BUILTIN_TABLES or table == "ready":
            by = "event" if table == "ready" else lang.BUILTIN_TABLES[table][0]
            field = {"effects": F_EFFECTS, "inbox": F_INBOX,
                     "ledger": F_LEDGER, "sent": F_SENT, "ready": F_READY,
                     "version": F_VERSION, "cache": F_CACHE}[table]
            if by == "event":
                return field, self._event_ref(idx)
            if idx not in self.keys:
                return None
            return field, self.keys.index(idx)
        grp = self.groups[g]
        prog = grp["prog"]
        if prog is None or table not in prog.tables:
            raise ValueError("unknown table %r of group %r"
                             % (table, grp["name"]))
        if prog.tables[table]["by"] == "event":
            cell = self._event_ref(idx)
        else:
            cell = grp["cell_of"][table].get(idx)
            if cell is None:
                return None
        return "decl", prog.table_names.index(table), cell

    def _table_kind(self, g, table):
        """'bool' or 'int': how a cell reads."""
        if table == "ready":
            return "int"
        if table in lang.BUILTIN_TABLES:
            return lang.BUILTIN_TABLES[table][1]
        kind = self.groups[g]["prog"].tables[table]["kind"]
        return "bool" if kind == "row" else "int"

    def _read(self, s, g, table, idx):
        where = self._cell(g, table, idx)
        boolean = self._table_kind(g, table) == "bool"
        if where is None:
            return False if boolean else 0
        if where[0] == "decl":
            v = s[F_DECL][g][where[1]][where[2]]
        else:
            v = s[where[0]][g][where[1]]
        return v == 1 if boolean else v

    def _write(self, n, g, table, idx, value):
        where = self._cell(g, table, idx)
        if where is None:
            raise ValueError("no cell %s[%r]" % (table, idx))
        value = int(value)
        if where[0] == "decl":
            _, t, c = where
            grp_tables = list(n[F_DECL][g])
            grp_tables[t] = self._set(grp_tables[t], c, value)
            n[F_DECL] = self._set(n[F_DECL], g, tuple(grp_tables))
        else:
            n[where[0]] = self._set2(n[where[0]], g, where[1], value)

    def _attr(self, e, attr):
        ev = self.events[e]
        if attr in self.num_attrs:
            return int(ev.get(attr, 0))
        return ev.get(attr)

    def _unset_local(self, g, name):
        """The value of a local no statement of this step has set (L3): 0
        (false), or for a local of a domain the domain's first value."""
        domain = self._local_domain(g, name)
        if domain is None:
            return 0
        values = self.domain_values(domain)
        return values[0] if values else 0

    def _local_domain(self, g, name, seen=()):
        """The domain of the values local `name` of group g's handler holds,
        from what a statement sets it to (event.A of a text attribute, or
        another such local); None for a boolean or an integer."""
        prog = self.groups[g]["prog"]
        for step in prog.steps:
            for _guard, action in step:
                if action[0] != "set" or action[1] != name:
                    continue
                x = action[2]
                if x[0] == "attr" and x[1] == ("name", "event") and \
                        self._is_text(x[2]):
                    return self.domain_of.get(x[2], x[2])
                if x[0] == "name" and x[1] not in seen and \
                        x[1] not in ("event", "key"):
                    d = self._local_domain(g, x[1], seen + (name,))
                    if d is not None:
                        return d
        return None

    def _is_text(self, attr):
        return attr in ("key", "account") or attr in self.domain_of or \
            any(isinstance(ev.get(attr), str) for ev in self.events)

    def _handler_value(self, node, n, g, e, local):
        """An expression of a handler, for event e of group g."""
        op = node[0]
        if op in ("int", "bool", "str"):
            return node[1]
        if op == "name":
            if node[1] == "event":
                return ("ev", e)
            if node[1] == "key":
                return self.events[e].get("key")
            return local.get(node[1], self._unset_local(g, node[1]))
        if op == "attr":
            if node[1] != ("name", "event"):
                raise ValueError("only event.ATTRIBUTE in a handler")
            return self._attr(e, node[2])
        if op == "index":
            if node[1] is not None:
                raise ValueError("a handler reads its own group's tables")
            idx = self._handler_value(node[3], n, g, e, local)
            if self.per_attempt and node[2] in ("inbox", "ledger"):
                return False       # B6: a message the table has never seen
            return self._read(n, g, node[2], idx)
        sub = lambda x: self._handler_value(x, n, g, e, local)
        return self._operator(node, sub)

    def _operator(self, node, sub):
        """neg, not and the binary operators, over sub(child)."""
        op = node[0]
        if op == "neg":
            return -sub(node[1])
        if op == "not":
            return not sub(node[1])
        if op != "bin":
            raise ValueError("unknown expression %r" % (node,))
        o = node[1]
        if o == "and":
            return bool(sub(node[2])) and bool(sub(node[3]))
        if o == "or":
            return bool(sub(node[2])) or bool(sub(node[3]))
        a, b = sub(node[2]), sub(node[3])
        if o in ("==", "!="):
            if isinstance(a, tuple) != isinstance(b, tuple):
                a, b = (("ev", self._event_ref(a)), ("ev", self._event_ref(b)))
            return (a == b) == (o == "==")
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b}[o]()

    def _run_declared(self, n, g, e, step, priv):
        """Run step `step` of group g's declared handler on list-state n for
        event e.  Returns the private data to keep while midway, a tuple
        (next step, carried locals..., stop flag if any), after any step
        but the last; else 0."""
        grp = self.groups[g]
        prog = grp["prog"]
        local = {}
        stopped = False
        last = step == len(prog.steps) - 1
        if step >= 1:
            for name, v in zip(prog.carried, priv[1:]):
                local[name] = v
            if prog.stop_flag and priv[-1]:
                # An earlier step stopped the handler: this one does
                # nothing, and the stop is carried to the next.
                return 0 if last else (step + 1,) + tuple(priv[1:])
        value = lambda x: self._handler_value(x, n, g, e, local)
        for guard, action in prog.steps[step]:
            if guard is not None and not value(guard):
                continue
            op = action[0]
            if op in ("stop", "stop_handler"):
                stopped = op == "stop_handler"
                break
            if op == "set":
                local[action[1]] = value(action[2])
                continue
            if op == "call":
                if self._keyed_call_dropped(n, g, e, action[1]):
                    continue
                self._write(n, g, "sent", ("ev", e), n[F_SENT][g][e] + 1)
                if action[1] and grp["KW"] is not None:
                    n[F_KEYAGE] = self._set2(n[F_KEYAGE], g, e, 0)
                continue
            table, idx_expr = action[1]
            idx = value(idx_expr)
            if op == "insert":
                was = self._read(n, g, table, idx)
                if self.per_attempt and table in ("inbox", "ledger"):
                    was = False            # B6
                self._write(n, g, table, idx, 1)
                if action[2] is not None:
                    local[action[2]] = not was
                continue
            cur = self._read(n, g, table, idx)
            v = value(action[2])
            if op == "add":
                self._write(n, g, table, idx, cur + action[3] * v)
            elif op == "assign":
                self._write(n, g, table, idx, v)
            elif op == "max":
                if v > cur:
                    self._write(n, g, table, idx, v)
        if not last:
            kept = [step + 1]
            for name in prog.carried:
                v = local.get(name, self._unset_local(g, name))
                if isinstance(v, str):           # a value of a domain (L3)
                    kept.append(v)
                    continue
                if not isinstance(v, bool):      # 16-bit signed (L3)
                    v = (int(v) + 32768) % 65536 - 32768
                kept.append(int(v))
            if prog.stop_flag:
                kept.append(int(stopped))
            return tuple(kept)
        return 0

    def _keyed_call_dropped(self, s, g, e, with_key):
        """The provider drops a keyed call whose key it has seen, while the
        last call it let through is younger than the group's window (L4)."""
        if not with_key or s[F_SENT][g][e] == 0:
            return False
        kw = self.groups[g]["KW"]
        return kw is None or s[F_KEYAGE][g][e] < kw

    # --- invariant expressions (LANGUAGE.md) ---------------------------
    def _inv_value(self, node, s, old, g, binds):
        op = node[0]
        if op in ("int", "bool", "str"):
            return node[1]
        if op == "name":
            if node[1] in binds:
                return binds[node[1]]
            raise ValueError("unknown name %r" % node[1])
        if op == "attr":
            base = self._inv_value(node[1], s, old, g, binds)
            if isinstance(base, tuple) and base[0] == "rec":
                return self._record_attr(base, node[2])
            return self._attr(self._event_ref(base), node[2])
        if op == "fact":
            if g is None:
                raise ValueError("group.%s needs `groups`" % node[1])
            grp = self.groups[g]
            if node[1] == "inbox":
                return grp["has_inbox"]
            if node[1] == "retention":
                return grp.get("T") is not None
            return grp["kind"] == node[1]
        if op == "old":
            if old is None:
                raise ValueError("old(...) outside a transition")
            return self._inv_value(node[1], old, None, g, binds)
        if op == "index":
            _, gname, table, idx_expr = node
            idx = self._inv_value(idx_expr, s, old, g, binds)
            if gname is None and table in lang.COLUMNS:
                col = {"published": F_PUB, "token": F_TOKEN,
                       "completed_token": F_CTOK, "offered": F_OFFERED}[table]
                v = s[col][self._event_ref(idx)]
                return v == 1 if lang.COLUMNS[table] == "bool" else v
            if gname is not None:
                if gname not in self.group_index:
                    raise ValueError("unknown group %r" % gname)
                tg = self.group_index[gname]
            elif g is None:
                raise ValueError("%s[...] needs GROUP. or `groups`" % table)
            else:
                tg = g
            if table in lang.BROKER_TABLES and not self._hides(tg, table):
                return self._broker_read(s, tg, table, idx)
            return self._read(s, tg, table, idx)
        if op == "agg":
            _, agg, domain, where, body = node
            if domain == "events":
                var, members = "event", [("ev", e) for e in range(self.nE)]
            elif domain in lang.BROKER_DOMAINS:
                var = lang.BROKER_DOMAINS[domain]
                members = self._broker_domain(domain)
            elif domain.endswith("s"):
                var = domain[:-1]
                members = self.attr_values(var)
            else:
                raise ValueError("unknown domain %r" % domain)
            vals = []
            for m in members:
                b = dict(binds)
                b[var] = m
                if where is not None and \
                        not self._inv_value(where, s, old, g, b):
                    continue
                vals.append(True if body is None else
                            self._inv_value(body, s, old, g, b))
            if agg == "all":
                return all(vals)
            if agg == "any":
                return any(vals)
            if agg == "count":
                return sum(1 for v in vals if v)
            if agg == "sum":
                return sum(vals)
            return max(vals, default=0)
        sub = lambda x: self._inv_value(x, s, old, g, binds)
        return self._operator(node, sub)

    # --- the partitioned broker's domains and tables in expressions ----
    def _broker_domain(self, domain):
        """partitions: "p1", "p2", ...; records: every (partition, offset)
        with offset 0..15, as ("rec", p, j), p from 0 (P12)."""
        if not self.partitioned:
            raise ValueError("domain %s needs a partitioned broker" % domain)
        if domain == "partitions":
            return ["p%d" % (p + 1) for p in range(self.nP)]
        return [("rec", p, j) for p in range(self.nP)
                for j in range(lang.RECORDS_PER_PARTITION)]

    def _partition_ref(self, v):
        """A partition value ("p1", ...; a bound `partition` or
        record.partition is one) -> its index from 0."""
        m = re.fullmatch(r"p([1-9][0-9]*)", v) if isinstance(v, str) \
            else None
        if m is None or int(m.group(1)) > self.nP:
            raise ValueError("%r is not a partition (p1..p%d)"
                             % (v, self.nP))
        return int(m.group(1)) - 1

    def _record_attr(self, rec, attr):
        if attr not in lang.RECORD_ATTRIBUTES:
            raise ValueError("a record has no attribute %r (%s)"
                             % (attr, ", ".join(lang.RECORD_ATTRIBUTES)))
        if attr == "partition":
            return "p%d" % (rec[1] + 1)
        return rec[2]                   # offset

    def _broker_read(self, s, g, table, idx):
        """applied[key], committed[partition], stale_commit[partition],
        processed[record], in_flight[record] of group g (P12)."""
        if table == "applied":
            if not self.obs_applied:
                raise ValueError("applied is read but not kept")
            if idx is None:                 # an event without a key
                return 0
            if idx not in self.keys:
                raise ValueError("no event has key %r" % (idx,))
            return s[F_APPLIED][g][self.keys.index(idx)]
        if not self.partitioned:
            raise ValueError("%s needs a partitioned broker" % table)
        if table in ("committed", "stale_commit"):
            p = self._partition_ref(idx)
            if table == "committed":
                return s[F_PGRP][g][p][2]
            if not self.obs_stale:
                raise ValueError("stale_commit is read but not kept")
            return s[F_STALE][g][p] == 1
        if not (isinstance(idx, tuple) and idx[0] == "rec"):
            raise ValueError("%s takes a record, got %r" % (table, idx))
        _, p, j = idx
        if j >= len(s[F_LOG][p]):       # past the partition's end
            return False
        if table == "processed":
            if not self.obs_done:
                raise ValueError("processed is read but not kept")
            return bool(s[F_DONE][g][p] >> j & 1)
        return any(s[F_INST][g][i][0] != I_IDLE
                   and s[F_PINST][g][i][:2] == (p, j)
                   for i in range(self.groups[g]["instances"]))

    def _declared_ok(self, name, s, old=None):
        inv = self.decl_invs[name]
        groups = [None] if inv.group_ids is None else inv.group_ids
        return all(self._inv_value(inv.expr, s, old, g, {}) is True
                   for g in groups)

    def kind_of(self, name):
        if name in self.decl_invs:
            return self.decl_invs[name].kind
        if name in SAFETY or name in PARTITION_SAFETY:
            return "safety"
        if name in TRANSITION or name in PARTITION_TRANSITION:
            return "transition"
        if name in AT_REST:
            return "at_rest"
        if name in self.decl_invs:
            return self.decl_invs[name].kind
        raise ValueError("unknown invariant %r" % name)

    def _set_inst(self, s, g, i, val):
        s[F_INST] = self._set2(s[F_INST], g, i, val)

    def _budget(self, s, b):
        if b not in self.any_budgets:       # U1: "any" is never spent
            s[F_BUDGET] = self._set(s[F_BUDGET], b, s[F_BUDGET][b] - 1)

    def _tbudget(self, s, b):
        if b not in self.any_tbudgets:
            s[F_TBUDGET] = self._set(s[F_TBUDGET], b, s[F_TBUDGET][b] - 1)

    # --- timed helpers -------------------------------------------------
    def _offer(self, n, s, r, e):
        """The broker receives a copy of e from relay r (send or
        send_ack_lost): it accepts it, or drops it under deduplication."""
        if self.dedup == "window" and s[F_OFFERED][e] >= 1 \
                and s[F_WINDOW][e] < self.W:
            return
        if self.dedup == "producer_session" and s[F_RETRYING][r] == 1:
            return
        self._send_copy(n, e)
        if self.dedup == "window":
            n[F_WINDOW] = self._set(n[F_WINDOW], e, 0)

    def _claim_due(self, s, e):
        return not self.has_clock or s[F_CLOCK][e] >= self.P

    def _fail_delivery(self, n, s, g, e):
        """ack_lost / crash_consumer of an instance of g holding e: the
        failed delivery's effect on the broker side.  False: not enabled."""
        grp = self.groups[g]
        if not grp["park"]:
            n[F_READY] = self._set2(n[F_READY], g, e, n[F_READY][g][e] + 1)
            return True
        if s[F_PARKED][g][e] != PK_NONE:
            return False
        k = s[F_ATTEMPTS][g][e] + 1
        ns = len(grp["delays"])
        if k <= ns:
            n[F_PARKED] = self._set2(n[F_PARKED], g, e, PK_DELAYED)
            n[F_PAGE] = self._set2(n[F_PAGE], g, e, 0)
            n[F_ATTEMPTS] = self._set2(n[F_ATTEMPTS], g, e, k)
        elif grp["dlq"]:
            n[F_PARKED] = self._set2(n[F_PARKED], g, e, PK_DEAD)
            n[F_PAGE] = self._set2(n[F_PAGE], g, e, 0)
            n[F_ATTEMPTS] = self._set2(n[F_ATTEMPTS], g, e, min(k, ns + 1))
        else:
            n[F_READY] = self._set2(n[F_READY], g, e, n[F_READY][g][e] + 1)
            n[F_ATTEMPTS] = self._set2(n[F_ATTEMPTS], g, e, ns + 1)
        return True

    @staticmethod
    def _retry_delay(grp, attempts):
        """d_k for k = attempts of a delayed copy; d_0 = 0 (T18): an
        acknowledge of another copy zeroed attempts while this one waits."""
        return grp["delays"][attempts - 1] if attempts > 0 else 0

    def _lease_cap(self, s, e):
        """The constant clock[e] is compared with in its present phase."""
        if self.lease_on and s[F_LEASE][e] == L_ACTIVE:
            return self.L if self.L is not None else 0
        return self.P

    def waiting(self, s):
        """Some clock is waiting: time passing can enable something."""
        if self.sweeper:
            for e in range(self.nE):
                if s[F_PUB][e] == 0 and s[F_CLOCK][e] < self.sweep_due:
                    return True
            for r in range(self.nR):
                if s[F_RELAYS][r][0] == R_CLAIMED and s[F_SCLOCK][r] < self.S:
                    return True
        if self.has_clock:
            for e in range(self.nE):
                if s[F_PUB][e] == 0 and s[F_CLOCK][e] < self._lease_cap(s, e):
                    return True
        if self.gap_clock:
            for e in range(self.nE):
                if s[F_PENDING][e] and (
                        (self.G is not None and s[F_CLOCK][e] < self.G)
                        or (self.Tx is not None and s[F_CLOCK][e] < self.Tx)):
                    return True
        for g, grp in enumerate(self.groups):
            if grp["park"]:
                for e in range(self.nE):
                    pk = s[F_PARKED][g][e]
                    if pk == PK_DELAYED:
                        d = self._retry_delay(grp, s[F_ATTEMPTS][g][e])
                        if s[F_PAGE][g][e] < d:
                            return True
                    elif pk == PK_DEAD:
                        if s[F_PAGE][g][e] < grp["dead_wait"]:
                            return True
            if grp["T"] is not None:
                for e in range(self.nE):
                    if s[F_INBOX][g][e] == 1 and \
                            s[F_IAGE][g][e] < grp["T"] + grp["I"]:
                        return True
            if s[F_DOWN][g] > 0:
                return True
        return s[F_DBDOWN] > 0

    def _tick(self, s):
        n = list(s)
        up = lambda v, cap: v + 1 if self.plain or v < cap else v
        if self.has_clock:
            n[F_CLOCK] = tuple(
                up(s[F_CLOCK][e], self._lease_cap(s, e)) if s[F_PUB][e] == 0
                else s[F_CLOCK][e] for e in range(self.nE))
        if self.gap_clock:
            n[F_CLOCK] = tuple(
                up(s[F_CLOCK][e], self.gap_cap) if s[F_PENDING][e]
                else s[F_CLOCK][e] for e in range(self.nE))
        if self.sweeper:
            n[F_CLOCK] = tuple(
                up(s[F_CLOCK][e], self.sweep_due) if s[F_PUB][e] == 0
                else s[F_CLOCK][e] for e in range(self.nE))
            n[F_SCLOCK] = tuple(
                up(s[F_SCLOCK][r], self.S) if s[F_RELAYS][r][0] == R_CLAIMED
                else s[F_SCLOCK][r] for r in range(self.nR))
        if self.dedup == "window":
            n[F_WINDOW] = tuple(
                up(s[F_WINDOW][e], self.W) if s[F_OFFERED][e] >= 1
                else s[F_WINDOW][e] for e in range(self.nE))
        iage, page = list(s[F_IAGE]), list(s[F_PAGE])
        for g, grp in enumerate(self.groups):
            if grp["T"] is not None:
                cap = grp["T"] + grp["I"]
                iage[g] = tuple(up(a, cap) if s[F_INBOX][g][e] == 1 else a
                                for e, a in enumerate(s[F_IAGE][g]))
            if grp["park"]:
                cap = grp["park_cap"]
                page[g] = tuple(up(a, cap) if s[F_PARKED][g][e] != PK_NONE
                                else a for e, a in enumerate(s[F_PAGE][g]))
        n[F_IAGE], n[F_PAGE] = tuple(iage), tuple(page)
        n[F_KEYAGE] = tuple(
            tuple(up(a, grp["KW"]) if s[F_SENT][g][e] > 0 else a
                  for e, a in enumerate(s[F_KEYAGE][g]))
            if grp["KW"] is not None else s[F_KEYAGE][g]
            for g, grp in enumerate(self.groups))
        n[F_DOWN] = tuple(max(0, d - 1) for d in s[F_DOWN])
        n[F_DBDOWN] = max(0, s[F_DBDOWN] - 1)
        if self.has_now:
            n[F_NOW] = s[F_NOW] + 1
        return tuple(n)

    def _tick_blocked_by_horizon(self, s):
        return self.has_now and self.horizon is not None \
            and s[F_NOW] >= self.horizon

    def dead_end(self, s):
        """A state without successors that is not terminal (A8, T10)."""
        if self.bound_blocked(s):
            return True
        return self.timed and self._tick_blocked_by_horizon(s) \
            and self.waiting(s)

    def _expire_free(self, s, e):
        """An expiry of e's active lease spends nothing: its time is up
        (time.lease), or, untimed, the lease is orphaned.  Otherwise it is
        premature, a fault."""
        if self.L is not None:
            return s[F_CLOCK][e] >= self.L
        return not self._holds_lease(s, e)

    def is_fault(self, act, s):
        """The action `act`, enabled in s, is a fault: one that spends a
        budget (docs/SEMANTICS.md section 15), "any" budgets included, and
        a premature expire (U5)."""
        name = act.split("(")[0].strip()
        if name == "expire":
            arg = act[act.index("(") + 1:act.rindex(")")].strip()
            return not self._expire_free(s, self.event_index[arg])
        return name in FAULT_ACTIONS

    # --- the abstraction (docs/SEMANTICS.md section 14) ----------------
    def abstract_successors(self, s, n):
        """The abstract states standing for n, the concrete successor of
        the abstract state s (U3): every count saturated at 2; for every
        offered or ready cell that fell from 2, both 1 and 2 (every
        combination when several fall, the concrete one first); tokens
        renumbered by rank without a claim bound."""
        falls = [(F_OFFERED, None, e) for e in range(self.nE)
                 if s[F_OFFERED][e] == 2 and n[F_OFFERED][e] == 1]
        falls += [(F_READY, g, e) for g in range(self.nG)
                  for e in range(self.nE)
                  if s[F_READY][g][e] == 2 and n[F_READY][g][e] == 1]
        base = self._saturate(n)
        out = []
        for choice in itertools.product((1, 2), repeat=len(falls)):
            m = list(base)
            for (field, g, e), v in zip(falls, choice):
                if g is None:
                    m[field] = self._set(m[field], e, v)
                else:
                    m[field] = self._set2(m[field], g, e, v)
            m = self._renumber(tuple(m)) if self.renumber else tuple(m)
            if m not in out:
                out.append(m)
        return out

    @staticmethod
    def _saturate(n):
        """offered, ready, effects and sent count up to 2 ("2 or more")."""
        m = list(n)
        m[F_OFFERED] = tuple(min(v, 2) for v in n[F_OFFERED])
        for f in (F_READY, F_EFFECTS, F_SENT):
            m[f] = tuple(tuple(min(v, 2) for v in row) for row in n[f])
        return m

    def _renumber(self, m):
        """Each event's tokens in use (the row's token, completed_token and
        the token of every relay working on the event) replaced by their
        rank among the nonzero ones; 0 stays 0 (U4)."""
        tok, ctok = list(m[F_TOKEN]), list(m[F_CTOK])
        relays = list(m[F_RELAYS])
        for e in range(self.nE):
            mine = [r for r, (ph, ev, _) in enumerate(relays)
                    if ph != R_IDLE and ev == e + 1]
            used = {tok[e], ctok[e]} | {relays[r][2] for r in mine}
            rank = {v: k for k, v in enumerate(sorted(used - {0}), start=1)}
            rank[0] = 0
            tok[e], ctok[e] = rank[tok[e]], rank[ctok[e]]
            for r in mine:
                ph, ev, t = relays[r]
                relays[r] = (ph, ev, rank[t])
        out = list(m)
        out[F_TOKEN], out[F_CTOK] = tuple(tok), tuple(ctok)
        out[F_RELAYS] = tuple(relays)
        return tuple(out)

    def successors(self, s):
        """List of (action_text, next_state) for every enabled action."""
        out = [(a, n) for a, n, _ in self._moves(s)]
        return out

    def _moves(self, s):
        """(action_text, next_state, due) for every enabled action, tick
        included."""
        out = self._untimed_and_timed_moves(s)
        if self.timed and not any(due for _, _, due in out) \
                and not self._tick_blocked_by_horizon(s) and self.waiting(s):
            out.append(("tick", self._tick(s), False))
        return out

    def _untimed_and_timed_moves(self, s):
        out = []
        E = self.nE
        bud = s[F_BUDGET]
        db_up = s[F_DBDOWN] == 0
        ps = self.dedup == "producer_session"
        for r, rname in enumerate(self.relays):
            ph, ev, tok = s[F_RELAYS][r]
            for e in range(E):
                if self.sweeper:
                    if ph != R_IDLE or s[F_PUB][e] != 0:
                        continue
                    if s[F_BEGUN][e] == 0:
                        due = True                  # the dispatch
                    elif s[F_CLOCK][e] >= self.M and db_up:
                        due = s[F_CLOCK][e] >= self.sweep_due
                    else:
                        continue
                    n = list(s)
                    n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_CLAIMED, e + 1, 0))
                    n[F_BEGUN] = self._set(s[F_BEGUN], e, 1)
                    n[F_SCLOCK] = self._set(s[F_SCLOCK], r, 0)
                    out.append(("claim(%s, %s)" % (rname, self.events[e]["name"]),
                                tuple(n), due))
                elif db_up and self._claim_ok_but_bound(s, r, e)[0] and \
                        self.style != "lease_token":
                    n = list(s)
                    if not (self.inline and s[F_PENDING][e]):
                        n[F_RELAYS] = self._set(s[F_RELAYS], r,
                                                (R_CLAIMED, e + 1, 0))
                    if self.style == "cdc_offset":
                        n[F_POS] = s[F_POS] + 1
                    if self.inline:                 # B9
                        n[F_BEGUN] = self._set(s[F_BEGUN], e, 1)
                    out.append(("claim(%s, %s)" % (rname, self.events[e]["name"]),
                                tuple(n), self._claim_due(s, e)))
                elif db_up and self._claim_ok_but_bound(s, r, e)[0]:
                    n = list(s)
                    t = s[F_TOKEN][e] + 1
                    n[F_TOKEN] = self._set(s[F_TOKEN], e, t)
                    n[F_OWNER] = self._set(s[F_OWNER], e, r + 1)
                    if self.lease_on:
                        n[F_LEASE] = self._set(s[F_LEASE], e, L_ACTIVE)
                    n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_CLAIMED, e + 1, t))
                    if self.has_clock:
                        n[F_CLOCK] = self._set(s[F_CLOCK], e, 0)
                    out.append(("claim(%s, %s)" % (rname, self.events[e]["name"]),
                                tuple(n), self._claim_due(s, e)))
            if ph == R_CLAIMED and not self._write_waits(s, r, ev - 1):
                e = ev - 1
                n = list(s)
                self._offer(n, s, r, e)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_SENT, ev, tok))
                n[F_SCLOCK] = self._set(s[F_SCLOCK], r, 0)
                out.append(("send(%s)" % rname, tuple(n),
                            not self.sweeper or s[F_SCLOCK][r] >= self.S))
                if bud[B_P] > 0:
                    n = list(s)
                    self._offer(n, s, r, e)
                    self._budget(n, B_P)
                    n[F_SCLOCK] = self._set(s[F_SCLOCK], r, 0)
                    if ps:
                        n[F_RETRYING] = self._set(s[F_RETRYING], r, 1)
                    out.append(("send_ack_lost(%s)" % rname, tuple(n), False))
            if ph == R_SENT and db_up and self.style != "lease_token":
                e = ev - 1
                n = list(s)
                n[F_PUB] = self._set(s[F_PUB], e, 1)
                if self.sweeper:
                    n[F_CLOCK] = self._set(s[F_CLOCK], e, 0)
                if self.style == "sequence_cursor":
                    n[F_CURSOR] = max(s[F_CURSOR], ev)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_IDLE, 0, 0))
                if ps:
                    n[F_RETRYING] = self._set(s[F_RETRYING], r, 0)
                out.append(("complete(%s)" % rname, tuple(n), True))
            elif ph == R_SENT and db_up:
                e = ev - 1
                n = list(s)
                if s[F_PUB][e] == 0 and (not self.fencing or (
                        s[F_OWNER][e] == r + 1 and s[F_TOKEN][e] == tok)):
                    n[F_PUB] = self._set(s[F_PUB], e, 1)
                    n[F_CTOK] = self._set(s[F_CTOK], e, tok)
                    if self.has_clock:
                        n[F_CLOCK] = self._set(s[F_CLOCK], e, 0)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_IDLE, 0, 0))
                if ps:
                    n[F_RETRYING] = self._set(s[F_RETRYING], r, 0)
                out.append(("complete(%s)" % rname, tuple(n), True))
            unflushed = self.style == "cdc_offset" and s[F_POS] > s[F_CURSOR]
            if (ph != R_IDLE or unflushed) and bud[B_C] > 0:
                n = list(s)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_IDLE, 0, 0))
                n[F_SCLOCK] = self._set(s[F_SCLOCK], r, 0)
                self._budget(n, B_C)
                if ps:
                    n[F_RETRYING] = self._set(s[F_RETRYING], r, 0)
                if self.style == "cdc_offset":
                    n[F_POS] = s[F_CURSOR]
                if self.inline and s[F_PUB][ev - 1] == 0:
                    # B9: the redelivered message runs its pass again
                    n[F_BEGUN] = self._set(s[F_BEGUN], ev - 1, 0)
                if self.retries:
                    # section 16.1: the write waiting for its retry is lost
                    # with the relay's process (P17)
                    n[F_RETRY] = self._set(s[F_RETRY], r, 0)
                out.append(("crash_relay(%s)" % rname, tuple(n), False))
            if self.retries:
                self._retry_moves(s, r, out)
        if self.lease_on:
            for e in range(E):
                if s[F_LEASE][e] == L_ACTIVE and s[F_PUB][e] == 0:
                    free = self._expire_free(s, e)
                    if free or bud[B_X] > 0:
                        n = list(s)
                        n[F_LEASE] = self._set(s[F_LEASE], e, L_EXPIRED)
                        if not free:
                            self._budget(n, B_X)
                        if self.has_clock:
                            n[F_CLOCK] = self._set(s[F_CLOCK], e, 0)
                        out.append(("expire(%s)" % self.events[e]["name"],
                                    tuple(n), free))
        for g, grp in enumerate(self.groups):
            gname = grp["name"]
            two = grp["two"]
            g_up = s[F_DOWN][g] == 0
            if self.partitioned:
                self._partitioned_instance_moves(s, g, out)
            for i in range(0 if self.partitioned else grp["instances"]):
                ph, ev, priv = s[F_INST][g][i]
                lbl = "%s, %d" % (gname, i + 1)
                if ph == I_IDLE:
                    if not g_up:
                        continue
                    for e in range(E):
                        if s[F_READY][g][e] > 0:
                            n = self._deliver_copy(s, g, i, e, two, False)
                            out.append(("consume(%s, %s)" % (
                                lbl, self.events[e]["name"]), tuple(n), True))
                    continue
                e = ev - 1
                if ph == I_MIDWAY and g_up:
                    n = list(s)
                    kept = self._second_of_two(n, g, e, priv)
                    if kept is None:
                        self._set_inst(n, g, i, (I_HOLDING, ev, 0))
                    else:
                        self._set_inst(n, g, i, (I_MIDWAY, ev, kept))
                    self._observe_step(n, s, g, e)
                    self._inserted(n, s, g, e)
                    out.append(("step(%s)" % lbl, tuple(n), True))
                if ph == I_HOLDING:
                    if g_up:
                        n = list(s)
                        self._set_inst(n, g, i, (I_IDLE, 0, 0))
                        if grp["park"]:
                            n[F_ATTEMPTS] = self._set2(s[F_ATTEMPTS], g, e, 0)
                        out.append(("acknowledge(%s)" % lbl, tuple(n), True))
                    if bud[B_A] > 0:
                        n = list(s)
                        if self._fail_delivery(n, s, g, e):
                            self._set_inst(n, g, i, (I_IDLE, 0, 0))
                            self._budget(n, B_A)
                            out.append(("ack_lost(%s)" % lbl, tuple(n), False))
                if ph == I_MIDWAY and bud[B_Q] > 0:
                    n = list(s)
                    if self._fail_delivery(n, s, g, e):
                        self._set_inst(n, g, i, (I_IDLE, 0, 0))
                        self._budget(n, B_Q)
                        out.append(("crash_consumer(%s)" % lbl, tuple(n),
                                    False))
                if ph == I_MIDWAY and bud[B_V] > 0:
                    n = list(s)
                    n[F_READY] = self._set2(s[F_READY], g, e,
                                            s[F_READY][g][e] + 1)
                    self._budget(n, B_V)
                    out.append(("redeliver(%s)" % lbl, tuple(n), False))
            # broker-side parking and the inbox cleanup job (T12)
            for e in range(E):
                ename = self.events[e]["name"]
                pk = s[F_PARKED][g][e] if grp["park"] else PK_NONE
                age = s[F_PAGE][g][e]
                if pk == PK_DELAYED and \
                        age >= self._retry_delay(grp, s[F_ATTEMPTS][g][e]):
                    n = list(s)
                    n[F_READY] = self._set2(s[F_READY], g, e,
                                            s[F_READY][g][e] + 1)
                    n[F_PARKED] = self._set2(s[F_PARKED], g, e, PK_NONE)
                    n[F_PAGE] = self._set2(s[F_PAGE], g, e, 0)
                    out.append(("retry(%s, %s)" % (gname, ename), tuple(n),
                                True))
                if pk == PK_DEAD and grp["D"] is not None and age >= grp["D"]:
                    n = list(s)
                    n[F_READY] = self._set2(s[F_READY], g, e,
                                            s[F_READY][g][e] + 1)
                    n[F_PARKED] = self._set2(s[F_PARKED], g, e, PK_NONE)
                    n[F_PAGE] = self._set2(s[F_PAGE], g, e, 0)
                    n[F_ATTEMPTS] = self._set2(s[F_ATTEMPTS], g, e, 0)
                    out.append(("redrive(%s, %s)" % (gname, ename), tuple(n),
                                True))
                if pk == PK_DEAD and grp["R"] is not None \
                        and age >= grp["R"] + 1:
                    n = list(s)
                    n[F_PARKED] = self._set2(s[F_PARKED], g, e, PK_NONE)
                    n[F_PAGE] = self._set2(s[F_PAGE], g, e, 0)
                    n[F_ATTEMPTS] = self._set2(s[F_ATTEMPTS], g, e, 0)
                    out.append(("dead_letter_expire(%s, %s)" % (gname, ename),
                                tuple(n), True))
                if grp["T"] is not None and s[F_INBOX][g][e] == 1 \
                        and s[F_IAGE][g][e] >= grp["T"] + 1:
                    n = list(s)
                    n[F_INBOX] = self._set2(s[F_INBOX], g, e, 0)
                    n[F_IAGE] = self._set2(s[F_IAGE], g, e, 0)
                    out.append(("cleanup(%s, %s)" % (gname, ename), tuple(n),
                                s[F_IAGE][g][e] >= grp["T"] + grp["I"]))
            tb = s[F_TBUDGET]
            if self.Oc is not None and s[F_DOWN][g] == 0 and tb[TB_CO] > 0:
                n = list(s)
                for i in range(grp["instances"]):
                    ph, ev, _ = s[F_INST][g][i]
                    if ph != I_IDLE:
                        n[F_READY] = self._set2(n[F_READY], g, ev - 1,
                                                n[F_READY][g][ev - 1] + 1)
                        self._set_inst(n, g, i, (I_IDLE, 0, 0))
                n[F_DOWN] = self._set(s[F_DOWN], g, self.Oc)
                self._tbudget(n, TB_CO)
                out.append(("consumer_outage(%s)" % gname, tuple(n), False))
        tb = s[F_TBUDGET]
        if self.Od is not None and s[F_DBDOWN] == 0 and tb[TB_DO] > 0:
            n = list(s)
            n[F_DBDOWN] = self.Od
            self._tbudget(n, TB_DO)
            out.append(("database_outage", tuple(n), False))
        # relay styles
        for e in range(E):
            if s[F_PENDING][e]:
                n = list(s)
                n[F_PENDING] = self._set(s[F_PENDING], e, 0)
                if self.style == "cdc_offset":
                    place = 1 + sum(1 for f in range(E) if not s[F_PENDING][f])
                    n[F_LOGPOS] = self._set(s[F_LOGPOS], e, place)
                due = True
                if self.gap_clock:
                    # B10: due once the row is Tx old; never without Tx
                    n[F_CLOCK] = self._set(s[F_CLOCK], e, 0)
                    due = self.Tx is not None and s[F_CLOCK][e] >= self.Tx
                out.append(("source_commit(%s)" % self.events[e]["name"],
                            tuple(n), due))
        for r, rname in enumerate(self.relays):
            ph = s[F_RELAYS][r][0]
            if ph == R_SENT and bud[B_F] > 0:
                n = list(s)
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_IDLE, 0, 0))
                self._budget(n, B_F)
                out.append(("commit_fails(%s)" % rname, tuple(n), False))
            if self.style == "cdc_offset" and ph == R_IDLE and \
                    s[F_POS] > s[F_CURSOR]:
                n = list(s)
                n[F_CURSOR] = s[F_POS]
                out.append(("flush_offset(%s)" % rname, tuple(n), True))
        for e in range(E):
            if bud[B_B] > 0 and s[F_OFFERED][e] >= 1 and \
                    all(rg[e] >= 1 for rg in s[F_READY]):
                n = list(s)
                n[F_OFFERED] = self._set(s[F_OFFERED], e, s[F_OFFERED][e] - 1)
                n[F_READY] = tuple(self._set(rg, e, rg[e] - 1)
                                   for rg in s[F_READY])
                self._budget(n, B_B)
                out.append(("lose_write(%s)" % self.events[e]["name"],
                            tuple(n), False))
        # section 16: rebalance(g, p, i) last, by group, partition, instance
        if self.partitioned and s[F_REBAL] > 0:
            for g, grp in enumerate(self.groups):
                for p in range(self.nP):
                    owner, epoch, committed, _pos = s[F_PGRP][g][p]
                    for i in range(grp["instances"]):
                        if owner == i:
                            continue
                        n = list(s)
                        n[F_PGRP] = self._set2(s[F_PGRP], g, p,
                                               (i, epoch + 1, committed,
                                                committed))
                        n[F_REBAL] = s[F_REBAL] - 1
                        out.append(("rebalance(%s, p%d, %d)"
                                    % (grp["name"], p + 1, i + 1),
                                    tuple(n), False))
        # section 16.2: consume_fails, consume_retry (P23)
        if self.partitioned:
            for g in range(self.nG):
                self._failure_moves(s, g, out)
        return out

    # --- handler failures and retry topics (section 16.2) --------------
    def _failure_moves(self, s, g, out):
        """consume_fails(g, i, e) for each event, then, with a retry
        topic, consume_retry(g, i, e) for each event, per instance of
        group g (P20, P21, P23)."""
        grp = self.groups[g]
        topic = grp["retry_topic"]
        for i in range(grp["instances"]):
            if s[F_INST][g][i][0] != I_IDLE:
                continue
            lbl = "%s, %d" % (grp["name"], i + 1)
            for e in range(self.nE) if s[F_HFAIL] > 0 else ():
                if not self._reads_next(s, g, i, e):
                    continue
                p = self.part[e]
                owner, epoch, committed, pos = s[F_PGRP][g][p]
                n = list(s)
                n[F_HFAIL] = s[F_HFAIL] - 1
                if topic:
                    # forwarded to the retry topic; the owner commits past
                    # it (always accepted) and the partition moves on
                    n[F_PGRP] = self._set2(s[F_PGRP], g, p,
                                           (owner, epoch, pos + 1, pos + 1))
                    if self.obs_done:
                        n[F_DONE] = self._set2(s[F_DONE], g, p,
                                               s[F_DONE][g][p] | (1 << pos))
                    n[F_READY] = self._set2(s[F_READY], g, e,
                                            s[F_READY][g][e] + 1)
                out.append(("consume_fails(%s, %s)" % (
                    lbl, self.events[e]["name"]), tuple(n), False))
            if not topic:
                continue
            for e in range(self.nE):
                if s[F_READY][g][e] == 0:
                    continue
                n = self._deliver_copy(s, g, i, e, grp["two"], True)
                out.append(("consume_retry(%s, %s)" % (
                    lbl, self.events[e]["name"]), tuple(n), True))

    def _reads_next(self, s, g, i, e):
        """Instance (g, i) owns e's partition, and the record at its fetch
        position is e (the guard of consume and consume_fails)."""
        p = self.part[e]
        owner, _epoch, _committed, pos = s[F_PGRP][g][p]
        log = s[F_LOG][p]
        return owner == i and pos < len(log) and log[pos] == e

    def _deliver_copy(self, s, g, i, e, two, retry_topic):
        """The successor of s where instance (g, i) takes a copy of e from
        ready[g][e] (the bag, or a retry topic: no partition, P21) and runs
        its handler's first step."""
        n = list(s)
        n[F_READY] = self._set2(s[F_READY], g, e, s[F_READY][g][e] - 1)
        if retry_topic:
            n[F_PINST] = self._set2(s[F_PINST], g, i, RETRY_TOPIC_RECORD)
        if two:
            m = self._first_of_two(n, g, e)
            self._set_inst(n, g, i, (I_MIDWAY, e + 1, m))
        else:
            self._step(n, g, e, True)
            self._set_inst(n, g, i, (I_HOLDING, e + 1, 0))
        self._observe_step(n, s, g, e)
        self._inserted(n, s, g, e)
        return n

    # --- producer retries (docs/SEMANTICS.md section 16.1) -------------
    def _write_waits(self, s, r, e):
        """A write of e by relay r (send, send_ack_lost; send_fails needs
        retry[r] = 0 anyway) must wait for the retry of retry[r]: with
        max_in_flight = 1 the relay does nothing until the retry (P15);
        otherwise an idempotent producer's broker refuses any later write
        to the failed one's partition, of that event again included
        (P16)."""
        if not self.retries or s[F_RETRY][r] == 0:
            return False
        if self.max_in_flight == 1:
            return True
        f = s[F_RETRY][r] - 1
        return self.idempotent and self.part[f] == self.part[e]

    def _retry_moves(self, s, r, out):
        """send_fails(r) and retry_send(r), after crash_relay(r) in the
        relay's block (P18)."""
        rname = self.relays[r]
        ph, ev, tok = s[F_RELAYS][r]
        if ph == R_CLAIMED and s[F_RETRY][r] == 0 and s[F_SFAIL] > 0:
            n = list(s)
            n[F_RETRY] = self._set(s[F_RETRY], r, ev)
            n[F_SFAIL] = s[F_SFAIL] - 1
            if self.max_in_flight > 1:
                # the producer reports nothing yet: the relay goes on as
                # after a send
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_SENT, ev, tok))
            out.append(("send_fails(%s)" % rname, tuple(n), False))
        if s[F_RETRY][r] != 0:
            e = s[F_RETRY][r] - 1
            n = list(s)
            self._offer(n, s, r, e)
            n[F_RETRY] = self._set(s[F_RETRY], r, 0)
            if ph == R_CLAIMED and ev == e + 1:
                n[F_RELAYS] = self._set(s[F_RELAYS], r, (R_SENT, ev, tok))
            out.append(("retry_send(%s)" % rname, tuple(n), True))

    # --- the partitioned broker (docs/SEMANTICS.md section 16) ---------
    def _observe_step(self, n, s, g, e):
        """applied[g][key(e)] = the rank of e among its key's events, when
        the handler step that led from s to n changed one of group g's
        durable tables (P10); only when applied_in_key_order is checked."""
        if not self.obs_applied or self.ev_key[e] is None:
            return
        if all(n[f][g] == s[f][g] for f in (F_EFFECTS, F_INBOX, F_LEDGER,
                                             F_SENT, F_VERSION, F_CACHE,
                                             F_DECL)):
            return
        n[F_APPLIED] = self._set2(n[F_APPLIED], g, self.ev_key[e],
                                  self.key_rank[e])

    def _processed(self, n, g, i):
        """The handler's last step ran for the record instance i of group g
        works on: done[g][p][j] = 1 (when no_offset_skipped is checked)."""
        p, j, _x, _f = n[F_PINST][g][i]
        if not self.obs_done or p < 0:      # a retry-topic copy (P21)
            return
        n[F_DONE] = self._set2(n[F_DONE], g, p, n[F_DONE][g][p] | (1 << j))

    def _commit(self, n, g, i, p, x, o):
        """Instance i of group g commits offset o for its record of
        partition p, fetched under epoch x."""
        owner, epoch, _committed, pos = n[F_PGRP][g][p]
        current = owner == i and epoch == x
        if not current and self.commit_fencing:
            return                                   # rejected
        n[F_PGRP] = self._set2(n[F_PGRP], g, p, (owner, epoch, o, pos))
        if not current and self.obs_stale:
            n[F_STALE] = self._set2(n[F_STALE], g, p, 1)

    def _idle(self, n, g, i):
        self._set_inst(n, g, i, (I_IDLE, 0, 0))
        n[F_PINST] = self._set2(n[F_PINST], g, i, (0, 0, 0, 0))

    def _partitioned_instance_moves(self, s, g, out):
        """consume, step, acknowledge, ack_lost, crash_consumer for each
        instance of group g, in the bag's order (section 16); redeliver is
        never enabled."""
        grp = self.groups[g]
        two, before = grp["two"], grp["commit_before"]
        bud = s[F_BUDGET]
        for i in range(grp["instances"]):
            ph, ev, priv = s[F_INST][g][i]
            lbl = "%s, %d" % (grp["name"], i + 1)
            if ph == I_IDLE:
                for e in range(self.nE):
                    if not self._reads_next(s, g, i, e):
                        continue
                    p = self.part[e]
                    owner, epoch, committed, pos = s[F_PGRP][g][p]
                    n = list(s)
                    n[F_PGRP] = self._set2(s[F_PGRP], g, p,
                                           (owner, epoch, committed, pos + 1))
                    if before:
                        n[F_PINST] = self._set2(s[F_PINST], g, i,
                                                (p, pos, epoch, 1))
                        self._commit(n, g, i, p, epoch, pos + 1)
                        self._set_inst(n, g, i, (I_MIDWAY, e + 1, 0))
                    else:
                        n[F_PINST] = self._set2(s[F_PINST], g, i,
                                                (p, pos, epoch, 0))
                        if two:
                            m = self._first_of_two(n, g, e)
                            self._set_inst(n, g, i, (I_MIDWAY, e + 1, m))
                        else:
                            self._step(n, g, e, True)
                            self._set_inst(n, g, i, (I_HOLDING, e + 1, 0))
                            self._processed(n, g, i)
                        self._observe_step(n, s, g, e)
                        self._inserted(n, s, g, e)
                    out.append(("consume(%s, %s)" % (
                        lbl, self.events[e]["name"]), tuple(n), True))
                continue
            e = ev - 1
            p, j, x, fetched = s[F_PINST][g][i]
            topic = p < 0           # a retry-topic copy (P21, P22)
            if ph == I_MIDWAY:
                n = list(s)
                if fetched:
                    n[F_PINST] = self._set2(s[F_PINST], g, i, (p, j, x, 0))
                    if two:
                        m = self._first_of_two(n, g, e)
                        self._set_inst(n, g, i, (I_MIDWAY, ev, m))
                    else:
                        self._step(n, g, e, True)
                        self._set_inst(n, g, i, (I_HOLDING, ev, 0))
                        self._processed(n, g, i)
                else:
                    kept = self._second_of_two(n, g, e, priv)
                    if kept is None:
                        self._set_inst(n, g, i, (I_HOLDING, ev, 0))
                        self._processed(n, g, i)
                    else:
                        self._set_inst(n, g, i, (I_MIDWAY, ev, kept))
                self._observe_step(n, s, g, e)
                self._inserted(n, s, g, e)
                out.append(("step(%s)" % lbl, tuple(n), True))
            if ph == I_HOLDING:
                n = list(s)
                if not before and not topic:
                    self._commit(n, g, i, p, x, j + 1)
                self._idle(n, g, i)
                out.append(("acknowledge(%s)" % lbl, tuple(n), True))
                if (topic or not before) and bud[B_A] > 0:
                    n = list(s)
                    self._idle(n, g, i)
                    self._budget(n, B_A)
                    if topic:       # back in the retry topic (P22)
                        n[F_READY] = self._set2(s[F_READY], g, e,
                                                s[F_READY][g][e] + 1)
                    out.append(("ack_lost(%s)" % lbl, tuple(n), False))
            if ph == I_MIDWAY and bud[B_Q] > 0:
                n = list(s)
                self._idle(n, g, i)
                self._budget(n, B_Q)
                if topic:           # back in the retry topic (P22)
                    n[F_READY] = self._set2(s[F_READY], g, e,
                                            s[F_READY][g][e] + 1)
                rows = list(s[F_PGRP][g])
                for q, (owner, epoch, committed, _pos) in enumerate(rows):
                    if owner == i:
                        rows[q] = (owner, epoch, committed, committed)
                n[F_PGRP] = self._set(n[F_PGRP], g, tuple(rows))
                out.append(("crash_consumer(%s)" % lbl, tuple(n), False))

    def _inserted(self, n, s, g, e):
        """A strategy inserted the inbox row (0 -> 1): its age starts."""
        if self.groups[g]["T"] is not None and s[F_INBOX][g][e] == 0 \
                and n[F_INBOX][g][e] == 1:
            n[F_IAGE] = self._set2(n[F_IAGE], g, e, 0)
    # ------------------------------------------------------------------
    def _groups_of(self, kind):
        return [g for g, grp in enumerate(self.groups) if grp["kind"] == kind]

    def safety_ok(self, name, s):
        if name in self.decl_invs:
            return self._declared_ok(name, s)
        E = self.nE
        if name == "effect_at_most_once":
            return all(s[F_EFFECTS][g][e] <= 1
                       for g in self._groups_of("credit") for e in range(E))
        if name == "stale_completion_rejected":
            return all(s[F_PUB][e] == 0 or s[F_CTOK][e] == s[F_TOKEN][e]
                       for e in range(E))
        if name == "notify_at_most_once":
            return all(s[F_SENT][g][e] <= 1
                       for g in self._groups_of("notification") for e in range(E))
        if name == "offered_at_most_once":
            return all(s[F_OFFERED][e] <= 1 for e in range(E))
        if name == "no_offset_skipped":
            for g, grp in enumerate(self.groups):
                working = {s[F_PINST][g][i][:2]
                           for i in range(grp["instances"])
                           if s[F_INST][g][i][0] != I_IDLE}
                for p in range(self.nP):
                    done = s[F_DONE][g][p]
                    for j in range(s[F_PGRP][g][p][2]):
                        if not done >> j & 1 and (p, j) not in working:
                            return False
            return True
        if name == "committed_by_owner":
            return all(v == 0 for row in s[F_STALE] for v in row)
        raise ValueError(name)

    def transition_ok(self, name, s, n):
        if name in self.decl_invs:
            return self._declared_ok(name, n, s)
        if name == "projection_monotonic":
            return all(n[F_VERSION][g][k] >= s[F_VERSION][g][k]
                       for g in self._groups_of("projection")
                       for k in range(self.nK))
        if name == "applied_in_key_order":
            return all(a >= b for new, old in zip(n[F_APPLIED], s[F_APPLIED])
                       for a, b in zip(new, old))
        raise ValueError(name)

    def at_rest_ok(self, name, s):
        if name in self.decl_invs:
            return self._declared_ok(name, s)
        E = self.nE
        if name == "eventually_offered":
            return all(s[F_PUB][e] == 1 and s[F_OFFERED][e] >= 1
                       for e in range(E))
        if name == "eventually_consumed":
            for g, grp in enumerate(self.groups):
                kind = grp["kind"]
                for e in range(E):
                    if kind == "credit":
                        if s[F_EFFECTS][g][e] < 1:
                            return False
                        if grp["has_inbox"] and grp.get("T") is None \
                                and s[F_INBOX][g][e] != 1:   # T11
                            return False
                    elif kind == "notification":
                        if s[F_SENT][g][e] < 1 or s[F_LEDGER][g][e] != 1:
                            return False
                    elif kind == "projection":
                        if s[F_VERSION][g][self.ev_key[e]] < self.ev_version[e]:
                            return False
                    elif kind == "cache":
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
                       for g in self._groups_of("projection")
                       for k, v in best.items())
        if name == "notify_at_least_once":
            return all(s[F_SENT][g][e] >= 1
                       for g in self._groups_of("notification") for e in range(E))
        if name == "cache_consistent":
            return all(s[F_CACHE][g][k] == FRESH
                       for g in self._groups_of("cache") for k in range(self.nK))
        raise ValueError(name)


def action_classes(model, act, s, n):
    """The action classes of scenarios/FORMAT.md's check.must_fire that the
    transition s --act--> n belongs to (L12)."""
    name = act.split("(")[0].strip()
    out = [name]
    if name == "complete":
        published = model.style != "lease_token" or n[F_PUB] != s[F_PUB]
        out.append("complete_published" if published
                   else "complete_rejected")
    elif name == "expire":
        premature = model.is_fault(act, s)
        out.append("expire_premature" if premature else "expire_orphaned")
    elif name in ("send", "send_ack_lost") and n[F_OFFERED] == s[F_OFFERED]:
        out.append("send_deduplicated")
    return out


def explore(model, invariants, liveness="auto"):
    """The exhaustive search.  In the abstract space when the model says so
    (docs/SEMANTICS.md section 14), every violation then replayed on the
    concrete model.  liveness: "auto" checks the at-rest invariants as
    leads-to properties under weak fairness (section 15) when counts are
    abstracted; "always" also on a concrete graph (bounded budgets)."""
    abstract = model.abstract
    keep = abstract or liveness == "always"
    s0 = model.initial()
    ids = {s0: 0}
    states = [s0]
    parent = [-1]
    via = [None]
    depth = [0]
    edges = []     # per state: (action, target, fault), when keep
    counts = []    # per state and edge: (takes at the cap, adds) (U8)
    transitions = terminal = dead_ends = 0
    first = {}     # invariant -> (length, state_id, extra_action or None)
    fired, fired_texts = set(), set()     # action classes seen (L12)
    kinds = {i: model.kind_of(i) for i in invariants}
    safety = [i for i in invariants if kinds[i] == "safety"]
    trans = [i for i in invariants if kinds[i] == "transition"]
    rest = [i for i in invariants if kinds[i] == "at_rest"]
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
        out, flows = [], []
        if not succ:
            if model.dead_end(s):
                dead_ends += 1
            else:
                terminal += 1
                for name in rest:
                    if name not in first and not model.at_rest_ok(name, s):
                        first[name] = (d, sid, None)
        for act, n in succ:
            if act not in fired_texts:
                fired.update(action_classes(model, act, s, n))
                if act.split("(")[0] not in ("complete", "expire", "send",
                                             "send_ack_lost"):
                    fired_texts.add(act)
            fault = keep and model.is_fault(act, s)
            flow = _count_flow(model, s, n) if abstract else None
            for m in (model.abstract_successors(s, n) if abstract else [n]):
                transitions += 1
                for name in trans:
                    if name not in first and \
                            not model.transition_ok(name, s, m):
                        first[name] = (d + 1, sid, act)
                if m not in ids:
                    nid = len(states)
                    ids[m] = nid
                    states.append(m)
                    parent.append(sid)
                    via.append(act)
                    depth.append(d + 1)
                    for name in safety:
                        if name not in first and \
                                not model.safety_ok(name, m):
                            first[name] = (d + 1, nid, None)
                if keep:
                    out.append((act, ids[m], fault))
                    if abstract:
                        flows.append(flow)
        if keep:
            edges.append(out)
            if abstract:
                counts.append(flows)
    violations, traces, loops, inconclusive = {}, {}, {}, {}
    for name in invariants:
        if name not in first:
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
        why = replay_violation(model, name, path) if abstract else None
        if why is not None:
            inconclusive[name] = "%s (length %d): %s" % (
                "the shortest abstract violation", length, why)
            continue
        violations[name] = length
        traces[name] = path
    if keep:
        for name in rest:
            if name in violations:
                continue
            bad = [not model.at_rest_ok(name, s) for s in states]
            lasso = fairness.find_fair_lasso(
                edges, bad, 0, counts if abstract else None)
            if lasso is None:
                continue
            stem = [a for _s, a, _t in lasso["stem"]]
            loop = [a for _s, a, _t in lasso["loop"]]
            why = replay_lasso(model, name, stem, loop) if abstract else None
            if why is not None:
                inconclusive[name] = "a fair lasso (stem %d, loop %d): %s" \
                    % (len(stem), len(loop), why)
                continue
            inconclusive.pop(name, None)
            violations[name] = len(stem)
            traces[name] = stem
            loops[name] = loop
    for name in invariants:
        if name in inconclusive:
            violations[name] = "inconclusive"
        violations.setdefault(name, "holds")
    result = {"states": len(states), "transitions": transitions,
              "terminal": terminal, "bounded_dead_ends": dead_ends,
              "depth": max(depth),
              "violations": {n: violations[n] for n in invariants},
              "traces": traces, "fired": sorted(fired)}
    if abstract:
        result["abstraction"] = ("tokens renumbered, " if model.renumber
                                 else "") + "counts saturated at 2"
    if keep:
        result["loops"] = loops
        result["cyclic"] = fairness.has_cycle(edges)
    if inconclusive:
        result["inconclusive"] = inconclusive
    return result


def _count_flow(model, s, n):
    """(takes, adds) of the transition from the abstract state s whose
    concrete successor is n (U8): the saturated counts that can fall
    (("offered", e) and ("ready", g, e)) it takes a copy from while they
    are at the cap, and those it adds a copy to."""
    takes, adds = [], []
    for e in range(model.nE):
        a, b = s[F_OFFERED][e], n[F_OFFERED][e]
        if b < a and a == 2:
            takes.append(("offered", e))
        elif b > a:
            adds.append(("offered", e))
    for g in range(model.nG):
        for e in range(model.nE):
            a, b = s[F_READY][g][e], n[F_READY][g][e]
            if b < a and a == 2:
                takes.append(("ready", g, e))
            elif b > a:
                adds.append(("ready", g, e))
    return frozenset(takes), frozenset(adds)


def _concrete_run(model, path):
    """The concrete states of `path` from the initial state, or the index
    of the first action that is not enabled."""
    s = model.initial()
    run = [s]
    for k, act in enumerate(path):
        match = [n for a, n in model.successors(s) if a == act]
        if not match:
            return k
        s = match[0]
        run.append(s)
    return run


def replay_violation(model, name, path):
    """None when `path` replays on the concrete model (U6): every action
    enabled, and the end breaks invariant `name` (a safety invariant in its
    last state, a transition invariant in its last step, an at-rest one in
    a terminal last state); else the reason it does not."""
    run = _concrete_run(model, path)
    if isinstance(run, int):
        return "step %d, %s, is not enabled on the concrete model" % (
            run + 1, path[run])
    kind = model.kind_of(name)
    end = run[-1]
    if kind == "safety":
        ok = model.safety_ok(name, end)
    elif kind == "transition":
        ok = model.transition_ok(name, run[-2], end)
    else:
        ok = bool(model.successors(end)) or model.dead_end(end) or \
            model.at_rest_ok(name, end)
    return "the concrete run does not break it" if ok else None


def replay_lasso(model, name, stem, loop):
    """None when the stem and then two turns of the loop replay on the
    concrete model (U7), every action enabled and the at-rest invariant
    `name` failing in every state from the stem's end on; else why not."""
    path = stem + loop + loop
    run = _concrete_run(model, path)
    if isinstance(run, int):
        return "step %d, %s, is not enabled on the concrete model" % (
            run + 1, path[run])
    for k in range(len(stem), len(run)):
        if model.at_rest_ok(name, run[k]):
            return "it holds after step %d of the concrete run" % k
    return None


def replay(model, invariants, order, loop=None):
    """A pinned order (docs/SEMANTICS.md section 10, item 7), and with
    check.loop a lasso: the order as its stem, then the loop twice (U9)."""
    norm = lambda a: "".join(a.split())
    s = model.initial()
    broke = {}
    for name in invariants:
        if model.kind_of(name) == "safety" and not model.safety_ok(name, s):
            broke[name] = 0
    not_enabled = None
    steps = 0
    path = [(a, None) for a in order]
    if loop:
        path += [(a, 1) for a in loop] + [(a, 2) for a in loop]
    run = [s]          # the states of the path
    taken = []         # per step: (action text, fault)
    for k, (want, turn) in enumerate(path, start=1):
        succ = model.successors(s)
        match = [(act, n) for act, n in succ if norm(act) == norm(want)]
        if not match:
            not_enabled = {"step": k, "action": want}
            if turn is not None:
                not_enabled["loop_turn"] = turn
            break
        act, n = match[0]
        taken.append((act, model.is_fault(act, s)))
        for name in invariants:
            if name in broke:
                continue
            kind = model.kind_of(name)
            if kind == "safety" and not model.safety_ok(name, n):
                broke[name] = k
            if kind == "transition" and not model.transition_ok(name, s, n):
                broke[name] = k
        s = n
        steps = k
        run.append(s)
    final_terminal = (not model.successors(s)) and not model.dead_end(s)
    if final_terminal and not_enabled is None:
        for name in invariants:
            if model.kind_of(name) == "at_rest" and name not in broke \
                    and not model.at_rest_ok(name, s):
                broke[name] = steps
    out = {"mode": "order", "steps": steps, "not_enabled": not_enabled,
           "final_terminal": final_terminal}
    if loop:
        out["loop_steps"] = len(loop)
        out["warnings"] = []
        if not_enabled is None:
            why = _loop_unfair(model, run[len(order):], taken[len(order):])
            for name in invariants:
                if model.kind_of(name) != "at_rest" or name in broke:
                    continue
                if any(model.at_rest_ok(name, x) for x in run[len(order):]):
                    continue
                if why is None:
                    broke[name] = len(order)
                else:
                    out["warnings"].append(
                        "%s fails in every state of check.loop, but the "
                        "loop is not a fair cycle (%s), so it shows no "
                        "violation" % (name, why))
    out["violations"] = {n: broke.get(n, "holds") for n in invariants}
    return out


def _loop_unfair(model, states, steps):
    """None when the loop's two turns, through `states` (the state where
    the loop starts, then one per step) by `steps` ((action, fault) per
    step), are a fair cycle (U9): no fault, and every non-fault action
    enabled in every one of those states taken on the loop; else why
    not."""
    for act, fault in steps:
        if fault:
            return "it takes the fault %s" % act
    always = None
    for x in states:
        here = {act for act, _n in model.successors(x)
                if not model.is_fault(act, x)}
        always = here if always is None else always & here
    norm = lambda a: "".join(a.split())
    on_loop = {norm(act) for act, _f in steps}
    missed = sorted(a for a in always if norm(a) not in on_loop)
    if missed:
        return "%s is enabled in every state of it but never taken, which " \
            "weak fairness rules out" % missed[0]
    return None


def run_file(path, declared_builtins=None, declared_invariants=None,
             liveness="auto"):
    """declared_builtins / declared_invariants: folders of strategy files
    and invariant files replacing the built-ins (None: the built-ins as
    this module implements them); liveness: explore's."""
    with open(path, "rb") as fh:
        cfg = tomllib.load(fh)
    model = Model(cfg, base=Path(path).parent,
                  declared_builtins=declared_builtins,
                  declared_invariants=declared_invariants)
    check = cfg.get("check", {})
    # Every invariant the file declares is checked, listed or not (after
    # the listed ones, in declaration order), unless it says check = false
    # (scenarios/FORMAT.md, [check]; L11).
    unchecked = {t.get("name") for t in cfg.get("invariants", [])
                 if t.get("check", True) is False}
    invariants = [n for n in check.get("invariants", [])
                  if n not in unchecked]
    invariants += [n for n in model.checked_decl if n not in invariants]
    result = {"file": path}
    if check.get("order"):
        result.update(replay(model, invariants, check["order"],
                             check.get("loop")))
    else:
        result.update(explore(model, invariants, liveness))
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
