"""The handler language and the invariant expressions of
scenarios/strategies/LANGUAGE.md, for the independent reference model
(outbox_reference.py).  Written from LANGUAGE.md alone; standard library only.

This module parses; outbox_reference.Model interprets (it owns the state
layout, the scenario's domains and the [initial] values).  It provides:
  load_strategy(path)          -> Program (name, steps, declared tables, the
                                  private in-flight data, the group kind)
  compile_invariant(table)     -> Invariant (name, kind, groups, expression)
  tokens / Parser              -> the shared lexer and expression parser

Expression trees are tuples:
  ("int", v) ("bool", v) ("str", s)      literals
  ("name", n)                            a local (handler) or a variable
                                         bound by an aggregate (invariant)
  ("attr", base, a)                      base.a, base an expression
  ("fact", f)                            group.f
  ("index", group|None, table, expr)     TABLE[expr] / GROUP.TABLE[expr]
  ("agg", op, domain, where|None, body|None)
  ("old", expr)
  ("neg", e) ("not", e) ("bin", op, a, b)
Statements are (guard|None, action) with the actions
  ("insert", target, local|None)  ("set", local, expr)
  ("add", target, expr, +1|-1)    ("assign", target, expr)
  ("max", target, expr)           ("call", with_key)
  ("stop",)                       ("stop_handler",)
and target = (table, index expression).

READINGS CHOSEN WHERE LANGUAGE.md LEAVES ROOM (see also outbox_reference.py,
choices L1..):
  - The private data of an instance (the locals carried to a later step):
    a local set by some step (by `x = expr` or `x = insert`) and read by a
    later step, as LANGUAGE.md words it ("a local read in a later step
    than one that sets it").  This holds also when the later step sets the
    local again before reading it: such a local is carried too (its value
    then splits midway states).  (An earlier version of this docstring
    said otherwise; Program._analyse has always carried it, and no bundled
    strategy reuses a local across steps.)
  - The stop-handler flag is kept only when step 1 contains `stop handler`
    and the handler has a step 2.  When step 1 stops the handler, the
    carried locals keep the values they had (they are not zeroed).
  - [domains]: a domain list is a non-empty list of attribute names; within
    one file an attribute is in at most one domain, and key, type and name
    are in none.  How the domains of all the strategies combine, and which
    attributes are numbers, is checked by outbox_reference.Model (L9).
    Only the attributes a statement reads (event.A, key) are needed on
    every event; a table's `by` names a domain and requires nothing.
  - A domain value is represented by its text; a local may hold one and is
    then carried to a later step like any other local (L3 of
    outbox_reference.py for an unset one).
  - An invariant table's `check = false` keeps the declaration unchecked.
  - The partitioned broker's domains and group tables in invariant
    expressions (BROKER_DOMAINS, BROKER_TABLES): `partitions` binds
    `partition`, `records` binds `record` (with `record.partition` and
    `record.offset`); `applied[key]`, `committed[partition]`,
    `stale_commit[partition]`, `processed[record]`, `in_flight[record]`.
    They are parsed like any aggregate, attribute and table read; their
    values, the observation cells a read keeps (applied, processed,
    stale_commit) and a strategy's own table of one of these names hiding
    the broker's are outbox_reference.Model's business (P11, P12).
    Handlers cannot read them (they are not handler tables).
  - The right side of `+=`, `-=`, `=`, `max =` must be a `value`
    ([-] integer | [-] event.ATTRIBUTE), as the grammar says.  Otherwise the
    reference is lenient: type errors, the ranges of constants, the cell
    bounds and the limits (8 tables, 64 cells, 8 locals, 24 bits) are not
    checked as the checker does (the reference computes the meaning of valid
    files); unknown tables, keys, names and missing attributes are errors.
"""

import re
import tomllib

BUILTIN_TABLES = {
    # name: (index: "event" | "key", read as: "int" | "bool", kind)
    "effects": ("event", "int", "credit"),
    "inbox": ("event", "bool", "credit"),
    "ledger": ("event", "bool", "notification"),
    "sent": ("event", "int", "notification"),
    "version": ("key", "int", "projection"),
    "cache": ("key", "bool", "cache"),
}
COLUMNS = {"published": "bool", "token": "int", "completed_token": "int",
           "offered": "int"}
# The group tables of the partitioned broker (docs/SEMANTICS.md section 16),
# read by invariant expressions only (LANGUAGE.md, "Invariant expressions"):
# name: (index: "key" | "partition" | "record", read as: "int" | "bool").
# A group whose strategy declares a table of one of these names reads its
# own table instead (the declared one hides it).
BROKER_TABLES = {
    "applied": ("key", "int"),              # either broker
    "committed": ("partition", "int"),
    "stale_commit": ("partition", "bool"),
    "processed": ("record", "bool"),
    "in_flight": ("record", "bool"),
}
# The observation cells among them: the state keeps one only when the
# scenario's invariants read it (P11 of outbox_reference.py).
OBSERVATION_TABLES = ("applied", "processed", "stale_commit")
# The partitioned broker's domains: aggregate domain -> the variable bound.
BROKER_DOMAINS = {"partitions": "partition", "records": "record"}
RECORD_ATTRIBUTES = ("partition", "offset")
RECORDS_PER_PARTITION = 16      # docs/SEMANTICS.md section 16
KINDS = ("credit", "notification", "projection", "cache", "custom")
FACTS = KINDS + ("inbox", "retention")
KEYWORDS = {"if", "insert", "call", "stop", "handler", "with_key", "and",
            "or", "not", "true", "false", "event", "key", "max", "old",
            "all", "any", "count", "sum", "group", "where"}
AGGREGATES = ("all", "any", "count", "sum", "max")

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>\#.*)
  | (?P<int>[0-9]+)
  | (?P<str>"[^"]*"|'[^']*')
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>==|!=|<=|>=|\+=|-=|[<>+\-*()\[\],.:=])
""", re.VERBOSE)


class LanguageError(ValueError):
    pass


def tokens(text, where):
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise LanguageError("%s: column %d: unexpected character %r"
                                % (where, pos + 1, text[pos]))
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "comment"):
            continue
        val = m.group()
        if kind == "int":
            val = int(val)
        elif kind == "str":
            val = val[1:-1]
        out.append((kind, val))
    out.append(("end", None))
    return out


class Parser:
    """Recursive descent over LANGUAGE.md's expression grammar."""

    def __init__(self, text, where):
        self.toks = tokens(text, where)
        self.k = 0
        self.where = where

    # --- token helpers ---------------------------------------------------
    def peek(self, ahead=0):
        return self.toks[min(self.k + ahead, len(self.toks) - 1)]

    def is_op(self, op, ahead=0):
        return self.peek(ahead) == ("op", op)

    def is_name(self, name, ahead=0):
        return self.peek(ahead) == ("name", name)

    def take(self):
        t = self.toks[self.k]
        self.k += 1
        return t

    def expect_op(self, op):
        if not self.is_op(op):
            self.fail("expected '%s'" % op)
        self.take()

    def expect_name(self, name=None):
        kind, val = self.peek()
        if kind != "name" or (name is not None and val != name):
            self.fail("expected %s" % (repr(name) if name else "a name"))
        self.take()
        return val

    def fail(self, what):
        raise LanguageError("%s: %s, found %r" % (self.where, what,
                                                  self.peek()[1]))

    def done(self):
        if self.peek()[0] != "end":
            self.fail("expected the end")

    # --- expressions -----------------------------------------------------
    def expr(self):
        a = self.conj()
        while self.is_name("or"):
            self.take()
            a = ("bin", "or", a, self.conj())
        return a

    def conj(self):
        a = self.negation()
        while self.is_name("and"):
            self.take()
            a = ("bin", "and", a, self.negation())
        return a

    def negation(self):
        if self.is_name("not"):
            self.take()
            return ("not", self.negation())
        return self.compare()

    def compare(self):
        a = self.sum()
        for op in ("==", "!=", "<=", ">=", "<", ">"):
            if self.is_op(op):
                self.take()
                return ("bin", op, a, self.sum())
        return a

    def sum(self):
        a = self.term()
        while self.is_op("+") or self.is_op("-"):
            op = self.take()[1]
            a = ("bin", op, a, self.term())
        return a

    def term(self):
        a = self.unary()
        while self.is_op("*"):
            self.take()
            a = ("bin", "*", a, self.unary())
        return a

    def unary(self):
        if self.is_op("-"):
            self.take()
            return ("neg", self.unary())
        return self.atom()

    def atom(self):
        kind, val = self.peek()
        if kind == "int":
            self.take()
            return ("int", val)
        if kind == "str":
            self.take()
            return ("str", val)
        if self.is_op("("):
            self.take()
            e = self.expr()
            self.expect_op(")")
            return e
        if kind != "name":
            self.fail("expected a value")
        self.take()
        if val in ("true", "false"):
            return ("bool", val == "true")
        if val in AGGREGATES and self.is_op("("):
            self.take()
            domain = self.expect_name()
            where = body = None
            if self.is_name("where"):
                self.take()
                where = self.expr()
            if self.is_op(","):
                self.take()
                body = self.expr()
            self.expect_op(")")
            return ("agg", val, domain, where, body)
        if val == "old" and self.is_op("("):
            self.take()
            e = self.expr()
            self.expect_op(")")
            return ("old", e)
        if self.is_op("["):                      # TABLE[expr] / COLUMN[expr]
            return ("index", None, val, self.subscript())
        if self.is_op("."):
            self.take()
            second = self.expect_name()
            if val == "group":
                if second not in FACTS:
                    raise LanguageError("%s: unknown fact group.%s"
                                        % (self.where, second))
                return ("fact", second)
            if self.is_op("["):                  # GROUP.TABLE[expr]
                return ("index", val, second, self.subscript())
            return ("attr", ("name", val), second)
        return ("name", val)

    def subscript(self):
        self.expect_op("[")
        e = self.expr()
        self.expect_op("]")
        return e

    # --- statements ------------------------------------------------------
    def statement(self):
        guard = None
        if self.is_name("if"):
            self.take()
            guard = self.expr()
            self.expect_op(":")
        action = self.action()
        self.done()
        return guard, action

    def target(self):
        table = self.expect_name()
        return table, self.subscript()

    def action(self):
        if self.is_name("insert"):
            self.take()
            return ("insert", self.target(), None)
        if self.is_name("call"):
            self.take()
            table, idx = self.target()
            if table != "sent" or idx != ("name", "event"):
                raise LanguageError("%s: only 'call sent[event]' is a call"
                                    % self.where)
            with_key = False
            if self.is_name("with_key"):
                self.take()
                with_key = True
            return ("call", with_key)
        if self.is_name("stop"):
            self.take()
            if self.is_name("handler"):
                self.take()
                return ("stop_handler",)
            return ("stop",)
        kind, name = self.peek()
        if kind == "name" and self.is_op("=", 1):  # local = ...
            self.take()
            self.take()
            if self.is_name("insert"):
                self.take()
                return ("insert", self.target(), name)
            return ("set", name, self.expr())
        target = self.target()
        if self.is_op("+=") or self.is_op("-="):
            sign = 1 if self.take()[1] == "+=" else -1
            return ("add", target, self.expr(), sign)
        if self.is_name("max"):
            self.take()
            self.expect_op("=")
            return ("max", target, self.expr())
        self.expect_op("=")
        return ("assign", target, self.expr())


# ---------------------------------------------------------------------------
def walk(node):
    """Every sub-tree of an expression tree, the tree included."""
    yield node
    if isinstance(node, tuple):
        for part in node[1:]:
            if isinstance(part, tuple):
                yield from walk(part)


def table_reads(node):
    """(GROUP | None, TABLE) of every table read in an expression."""
    for sub in walk(node):
        if sub[0] == "index":
            yield sub[1], sub[2]


def domains_read(node):
    """The domain of every aggregate in an expression."""
    for sub in walk(node):
        if sub[0] == "agg":
            yield sub[2]


def action_exprs(action):
    """The expressions an action reads (index expressions included)."""
    op = action[0]
    if op == "insert":
        return [action[1][1]]
    if op == "set":
        return [action[2]]
    if op in ("add", "assign", "max"):
        return [action[1][1], action[2]]
    return []


def is_value(node):
    """LANGUAGE.md's `value`: [-] integer | [-] event.ATTRIBUTE."""
    if node[0] == "neg":
        node = node[1]
    return node[0] == "int" or (node[0] == "attr"
                                and node[1] == ("name", "event"))


def action_table(action):
    if action[0] in ("insert", "add", "assign", "max"):
        return action[1][0]
    if action[0] == "call":
        return "sent"
    return None


def sets_local(action):
    if action[0] == "insert":
        return action[2]
    if action[0] == "set":
        return action[1]
    return None


class Program:
    """A strategy file, parsed and analysed."""

    def __init__(self, path):
        with open(path, "rb") as fh:
            cfg = tomllib.load(fh)
        for key in cfg:
            if key not in ("name", "description", "steps", "tables",
                           "domains"):
                raise LanguageError("%s: unknown key %r" % (path, key))
        self.path = str(path)
        self.name = cfg["name"]
        steps = cfg.get("steps")
        if not isinstance(steps, list) or not 1 <= len(steps) <= 4 \
                or any(not isinstance(s, list) or not s for s in steps):
            raise LanguageError("%s: steps: 1 to 4 non-empty steps" % path)
        self.tables = {}
        for tname, spec in cfg.get("tables", {}).items():
            if tname in BUILTIN_TABLES or tname in KEYWORDS \
                    or tname in COLUMNS or tname == "ready":
                raise LanguageError("%s: tables.%s: a built-in table or a "
                                    "keyword" % (path, tname))
            if spec.get("kind") not in ("row", "number") or \
                    not isinstance(spec.get("by"), str):
                raise LanguageError("%s: tables.%s: kind row|number and by"
                                    % (path, tname))
            self.tables[tname] = {"kind": spec["kind"], "by": spec["by"]}
        # [domains]: DOMAIN = [ATTRIBUTE, ...].  Which attributes are text
        # and how the domains of all the scenario's strategies combine is
        # the scenario's business (outbox_reference.Model); here only the
        # file's own rules.
        self.domains = {}
        placed = {}
        for dname, members in cfg.get("domains", {}).items():
            if not isinstance(members, list) or not members or any(
                    not isinstance(a, str) for a in members):
                raise LanguageError("%s: domains.%s: a list of attribute "
                                    "names" % (path, dname))
            for a in [dname] + members:
                if a in ("key", "type", "name"):
                    raise LanguageError("%s: domains.%s: %r cannot be in a "
                                        "domain" % (path, dname, a))
            for a in members:
                if placed.get(a, dname) != dname:
                    raise LanguageError("%s: domains.%s: %r is already in "
                                        "domain %r" % (path, dname, a,
                                                       placed[a]))
                placed[a] = dname
            self.domains[dname] = list(dict.fromkeys(members))
        self.steps = [[Parser(text, "%s: steps[%d][%d]" % (path, s + 1, k + 1))
                       .statement() for k, text in enumerate(step)]
                      for s, step in enumerate(steps)]
        self.table_names = list(self.tables)
        self._analyse()

    def _analyse(self):
        used, attrs = set(), set()
        for step in self.steps:
            for guard, action in step:
                if action[0] in ("add", "assign", "max") and \
                        not is_value(action[2]):
                    raise LanguageError(
                        "%s: %s is written with a constant or an event "
                        "attribute, got %r" % (self.path, action[1][0],
                                               action[2]))
                t = action_table(action)
                if t is not None:
                    used.add(t)
                exprs = ([guard] if guard else []) + action_exprs(action)
                for e in exprs:
                    for node in walk(e):
                        if node[0] == "index":
                            used.add(node[2])
                        if node[0] == "attr" and node[1] == ("name", "event"):
                            attrs.add(node[2])
                        if node[0] == "name" and node[1] == "key":
                            attrs.add("key")
        for t in used:
            if t not in BUILTIN_TABLES and t not in self.tables:
                raise LanguageError("%s: unknown table %r" % (self.path, t))
        # Only the attributes a statement reads are needed on every event
        # (LANGUAGE.md, "Domains"): a table by a domain has one cell per
        # value some event carries, and needs no attribute of its own.
        self.uses = used
        self.attrs = attrs              # attributes every event must carry
        kinds = {BUILTIN_TABLES[t][2] for t in used if t in BUILTIN_TABLES}
        if len(kinds) > 1:
            raise LanguageError("%s: uses the tables of %s; a handler uses "
                                "the tables of one kind"
                                % (self.path, " and ".join(sorted(kinds))))
        self.kind = kinds.pop() if kinds else "custom"
        self.has_inbox = "inbox" in used
        # The private in-flight data (reading chosen: see the docstring):
        # a local is carried when a step reads it after an earlier step
        # set it; the stop flag when a step before the last can stop the
        # handler.
        self.carried = []
        self.stop_flag = len(self.steps) >= 2 and any(
            a == ("stop_handler",)
            for step in self.steps[:-1] for _, a in step)
        first_set = {}
        for k, step in enumerate(self.steps):
            for guard, action in step:
                exprs = ([guard] if guard else []) + action_exprs(action)
                for e in exprs:
                    for node in walk(e):
                        if node[0] == "name" and node[1] in first_set \
                                and first_set[node[1]] < k \
                                and node[1] not in self.carried:
                            self.carried.append(node[1])
                local = sets_local(action)
                if local is not None and local not in first_set:
                    first_set[local] = k


def load_strategy(path):
    return Program(path)


class Invariant:
    """One [[invariants]] table of a scenario."""

    def __init__(self, table, k):
        where = "invariants[%d]" % k
        for key in table:
            if key not in ("name", "description", "kind", "groups", "holds",
                           "check"):
                raise LanguageError("%s: unknown key %r" % (where, key))
        self.name = table["name"]
        self.check = table.get("check", True)
        if not isinstance(self.check, bool):
            raise LanguageError("%s.check: expected a boolean" % where)
        self.kind = table.get("kind", "safety")
        if self.kind not in ("safety", "transition", "at_rest"):
            raise LanguageError("%s.kind: %r" % (where, self.kind))
        groups = table.get("groups")
        self.groups = [groups] if isinstance(groups, str) else groups
        p = Parser(table["holds"], where + ".holds")
        self.expr = p.expr()
        p.done()
        if self.kind != "transition" and any(
                n[0] == "old" for n in walk(self.expr)):
            raise LanguageError("%s: old(...) only in transition invariants"
                                % where)


def compile_invariant(table, k):
    return Invariant(table, k)
