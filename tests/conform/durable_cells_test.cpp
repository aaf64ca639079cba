// The comparer, without a database: the model side of the durable cells
// and how two lists of cells differ.

#include "conform/durable_cells.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "model/outbox_model.h"

namespace oc::conform {
namespace {

Config OneCreditEvent(Strategy strategy) {
  Config c;
  c.relays = {"A"};
  Event e;
  e.name = "e1";
  e.account = "acct-1";
  e.amount = 1000;
  c.events = {e};
  c.groups = {Group{"billing", strategy, 1}};
  c.budgets.lost_consumer_acks = 1;
  return c;
}

State Run(const OutboxModel& model, const std::vector<std::string>& order) {
  State s = model.InitialStates().front();
  for (const std::string& text : order) {
    Result<Action> a = ParseAction(model.config(), text);
    REQUIRE(a.ok());
    Result<State> next = model.Apply(s, a.value());
    REQUIRE(next.ok());
    s = std::move(next).value();
  }
  return s;
}

const DurableCell* Find(const std::vector<DurableCell>& cells,
                        std::string_view name) {
  auto it = std::find_if(cells.begin(), cells.end(),
                         [&](const DurableCell& c) { return c.name == name; });
  return it == cells.end() ? nullptr : &*it;
}

const std::vector<std::string> kDelivered = {"claim(A, e1)", "send(A)",
                                             "complete(A)"};

TEST_CASE(
    "a model state that differs shows up as a difference naming the "
    "cell, both values and the table") {
  const OutboxModel model(OneCreditEvent(Strategy::kCreditNaive));
  const State delivered = Run(model, kDelivered);
  std::vector<std::string> twice = kDelivered;
  twice.insert(twice.end(), {"consume(billing, 1, e1)", "ack_lost(billing, 1)",
                             "consume(billing, 1, e1)"});
  const State credited_twice = Run(model, twice);
  std::vector<std::string> once = kDelivered;
  once.insert(once.end(), {"consume(billing, 1, e1)", "ack_lost(billing, 1)"});
  const State credited_once = Run(model, once);

  // The database stands in as the model state with one credit; the model
  // has two.
  const std::vector<CellDifference> diff =
      CompareCells(ModelDurableCells(model, credited_twice),
                   ModelDurableCells(model, credited_once));
  REQUIRE(diff.size() == 2);
  CHECK(diff[0] ==
        CellDifference{"broker.ready[billing][e1]", "broker_ready", "0", "1"});
  CHECK(diff[1] == CellDifference{"billing.credit_cents[acct-1]", "accounts",
                                  "2000", "1000"});
  CHECK(CompareCells(ModelDurableCells(model, delivered),
                     ModelDurableCells(model, delivered))
            .empty());
}

TEST_CASE("durable cells leave out relays, instances and fault budgets") {
  const OutboxModel model(OneCreditEvent(Strategy::kCreditInbox));
  const std::vector<DurableCell> cells = ModelDurableCells(
      model, Run(model, {"claim(A, e1)", "send(A)", "complete(A)",
                         "consume(billing, 1, e1)"}));
  for (const DurableCell& c : cells) {
    CHECK_FALSE(c.name.starts_with("relay["));
    CHECK_FALSE(c.name.starts_with("instance["));
    CHECK_FALSE(c.name.starts_with("faults."));
  }
  REQUIRE(Find(cells, "outbox[e1].published") != nullptr);
  CHECK(Find(cells, "outbox[e1].published")->value == "1");
  CHECK(Find(cells, "outbox[e1].owner")->value == "A");
  CHECK(Find(cells, "outbox[e1].lease")->value == "active");
  CHECK(Find(cells, "billing.inbox[e1]")->table == "consumed_events");
  CHECK(Find(cells, "billing.credit_cents[acct-1]")->value == "1000");
}

TEST_CASE("credit cents add up the events that credit one account") {
  Config c = OneCreditEvent(Strategy::kCreditNaive);
  Event e2 = c.events[0];
  e2.name = "e2";
  e2.amount = 250;
  c.events.push_back(e2);
  const OutboxModel model(c);
  const std::vector<DurableCell> cells = ModelDurableCells(
      model,
      Run(model, {"claim(A, e1)", "send(A)", "complete(A)", "claim(A, e2)",
                  "send(A)", "complete(A)", "consume(billing, 1, e1)",
                  "acknowledge(billing, 1)", "consume(billing, 1, e2)"}));
  CHECK(Find(cells, "billing.credit_cents[acct-1]")->value == "1250");
  CHECK(std::count_if(cells.begin(), cells.end(), [](const DurableCell& d) {
          return d.table == "accounts";
        }) == 1);
}

TEST_CASE("check_then_act's inbox is read from the table without a key") {
  const OutboxModel model(OneCreditEvent(Strategy::kCreditCheckThenAct));
  const std::vector<DurableCell> cells =
      ModelDurableCells(model, model.InitialStates().front());
  CHECK(Find(cells, "billing.inbox[e1]")->table == "consumed_events_unkeyed");
}

}  // namespace
}  // namespace oc::conform
