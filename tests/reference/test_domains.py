#!/usr/bin/env python3
"""Unit checks of the reference model's reading of domains and starting
values (scenarios/strategies/LANGUAGE.md, "Domains"; scenarios/FORMAT.md,
"[initial]"), on small hand-written scenarios.  Standard library only:

    python3 tests/reference/test_domains.py
"""
import pathlib
import sys
import tempfile
import textwrap
import tomllib
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import outbox_reference as ref  # noqa: E402

TRANSFER = """
name = "transfer"
steps = [
  ["payer = event.from",
   "if payer == event.to: stop",
   "balance[payer] -= event.amount"],
  ["balance[event.to] += event.amount",
   "moved[payer] += 1"],
]

[tables]
balance = { kind = "number", by = "account" }
moved = { kind = "number", by = "account" }
done = { kind = "row", by = "event" }

[domains]
account = ["from", "to"]
"""

SCENARIO = """
relays = 1

[[events]]
name = "t-1"
from = "carol"
to = "bob"
amount = 5

[[events]]
name = "t-2"
account = "dave"
from = "alice"
to = "carol"
amount = 7

[[groups]]
name = "bank"
strategy = { file = "s.toml" }

[initial.bank]
balance = { alice = 10, bob = 20 }
done = { t-2 = true }

[check]
invariants = ["eventually_offered"]
"""


class Domains(unittest.TestCase):
    def model(self, scenario=SCENARIO, strategy=TRANSFER, extra=""):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        d = pathlib.Path(self.tmp.name)
        (d / "s.toml").write_text(textwrap.dedent(strategy))
        cfg = tomllib.loads(textwrap.dedent(scenario) + extra)
        return ref.Model(cfg, base=d)

    def test_values_in_order_of_first_appearance(self):
        m = self.model()
        # t-1: from carol, to bob; t-2: account dave first, then alice,
        # carol (already there).
        self.assertEqual(m.domain_values("account"),
                         ["carol", "bob", "dave", "alice"])
        self.assertEqual(m.attr_values("account"),
                         ["carol", "bob", "dave", "alice"])
        with self.assertRaises(ValueError):
            m.attr_values("from")           # write accounts, not froms

    def test_initial_values_are_the_first_state(self):
        m = self.model()
        s0 = m.initial()
        balance, moved, done = s0[ref.F_DECL][0]
        self.assertEqual(balance, (0, 20, 0, 10))     # carol bob dave alice
        self.assertEqual(moved, (0, 0, 0, 0))
        self.assertEqual(done, (0, 1))                # t-1, t-2

    def run_handler(self, m, e):
        """Both steps of the handler on event e from the first state."""
        n = list(m.initial())
        priv = m._run_declared(n, 0, e, 0, 0)
        self.assertIsInstance(priv, tuple)
        m._run_declared(n, 0, e, 1, priv)
        return priv, n[ref.F_DECL][0]

    def test_any_value_indexes_the_table_and_a_local_is_carried(self):
        m = self.model()
        priv, (balance, moved, _) = self.run_handler(m, 1)   # alice -> carol
        self.assertEqual(priv, (1, "alice"))  # next step, carried payer
        self.assertEqual(balance, (7, 20, 0, 3))
        self.assertEqual(moved, (0, 0, 0, 1))

    def test_invariants_range_over_every_attribute_of_the_domain(self):
        m = self.model(extra=textwrap.dedent("""
            [[invariants]]
            name = "total"
            holds = "sum(accounts, bank.balance[account]) == 30"

            [[invariants]]
            name = "payers"
            holds = "count(accounts where any(events, event.from == account)) == 2"

            [[invariants]]
            name = "quoted"
            holds = "bank.balance['alice'] == 10 and all(events where event.from == 'carol', bank.balance[event.from] == 0)"

            [[invariants]]
            name = "off"
            check = false
            holds = "false"
            """))
        s0 = m.initial()
        self.assertTrue(m.safety_ok("total", s0))
        self.assertTrue(m.safety_ok("payers", s0))
        self.assertTrue(m.safety_ok("quoted", s0))
        self.assertEqual(m.checked_decl, ["total", "payers", "quoted"])

    def test_refusals(self):
        with self.assertRaises(ValueError):          # a number attribute
            self.model(strategy=TRANSFER.replace('["from", "to"]',
                                                 '["from", "amount"]'))
        with self.assertRaises(ValueError):          # no such value
            self.model(scenario=SCENARIO.replace("bob = 20", "erin = 20"))
        with self.assertRaises(ValueError):          # a row takes booleans
            self.model(scenario=SCENARIO.replace("t-2 = true", "t-2 = 1"))
        with self.assertRaises(ValueError):          # key is in no domain
            self.model(strategy=TRANSFER.replace('["from", "to"]',
                                                 '["from", "key"]'))


if __name__ == "__main__":
    unittest.main()
