// The partitioned broker (docs/SEMANTICS.md section 16): records appended
// in send order, offsets, rebalances and commit fencing, producer retries,
// handler failures and retry topics, action texts, configuration errors,
// and the packed encoding of its cells.

#include <doctest/doctest.h>

#include <map>
#include <vector>

#include "model/outbox_model.h"
#include "model_test_util.h"

namespace oc {
namespace {

using testing::Run;
using testing::Why;

// One relay, two events of key "k" (versions 1, 2), a partitioned broker
// and one group of `strategy` with `instances` instances.
Config Partitioned(Strategy strategy, int instances = 1, int relays = 1) {
  Config c = testing::MakeConfig(relays, 2, {strategy}, instances);
  c.broker.delivery = Delivery::kPartitioned;
  return c;
}

TEST_CASE("a send appends a record to the event's partition, in send order") {
  Config c = Partitioned(Strategy::kProjectionLww);
  OutboxModel m(c);
  const State s = Run(m, {"claim(r1, e2)", "send(r1)", "complete(r1)",
                          "claim(r1, e1)", "send(r1)"});
  REQUIRE(s.lengths.size() == 1);
  CHECK(s.lengths[0] == 2);
  CHECK(s.records[0] == 2);  // e2 first
  CHECK(s.records[1] == 1);
  CHECK(s.group_events[0].ready == 0);  // the bag's counts stay 0
  CHECK(s.events[0].offered == 1);
  // The group reads the log in order: e1 is not next.
  CHECK(Why(m, s, "consume(g1, 1, e1)") ==
        "the record at group g1's position 0 of partition p1 is e2, not e1");
  const State t = Run(m, {"claim(r1, e2)", "send(r1)", "complete(r1)",
                          "claim(r1, e1)", "send(r1)", "consume(g1, 1, e2)",
                          "acknowledge(g1, 1)", "consume(g1, 1, e1)"});
  CHECK(t.group_keys[0].version == 1);  // last writer wins: moved back
  CHECK(t.partitions[0].committed == 1);
  CHECK(t.partitions[0].position == 2);
}

TEST_CASE("events of one key share a partition; partition pins another") {
  Config c = Partitioned(Strategy::kCreditInbox);
  c.broker.partitions = 2;
  CHECK(PartitionOf(c, 0) == 0);
  CHECK(PartitionOf(c, 1) == 0);
  c.events[1].key = "other";
  CHECK(PartitionOf(c, 1) == 1);
  c.events[1].partition = 1;
  CHECK(PartitionOf(c, 1) == 0);
  c.events[0].key.reset();
  c.events[1].key.reset();
  c.events[1].partition.reset();
  CHECK(PartitionOf(c, 0) == 0);  // by index without a key
  CHECK(PartitionOf(c, 1) == 1);
}

TEST_CASE(
    "a rebalance moves the partition; fencing decides the old owner's "
    "commit") {
  for (const bool fencing : {true, false}) {
    CAPTURE(fencing);
    Config c = Partitioned(Strategy::kCreditInbox, 2);
    c.broker.commit_fencing = fencing;
    c.budgets.rebalances = 1;
    c.observed = kObserveStaleCommit | kObserveProcessed;
    OutboxModel m(c);
    State s = Run(m, {"claim(r1, e1)", "send(r1)", "consume(g1, 1, e1)",
                      "rebalance(g1, p1, 2)"});
    CHECK(s.partitions[0].owner == 1);
    CHECK(s.partitions[0].epoch == 1);
    CHECK(s.partitions[0].position == 0);  // the new owner starts over
    CHECK(s.budgets.rebalances == 0);
    CHECK(Why(m, s, "consume(g1, 1, e1)") ==
          "instance 1 of group g1 is holding(e1), not idle");
    s = Run(m, {"claim(r1, e1)", "send(r1)", "consume(g1, 1, e1)",
                "rebalance(g1, p1, 2)", "acknowledge(g1, 1)"});
    CHECK(s.partitions[0].committed == (fencing ? 0 : 1));
    CHECK(s.partitions[0].stale_commit == (fencing ? 0 : 1));
    CHECK(s.partitions[0].done == 1);  // the zombie did process it
  }
}

TEST_CASE(
    "commit before processing: the offset moves at the fetch, and a "
    "crash before the handler loses the record") {
  Config c = Partitioned(Strategy::kCreditInbox);
  c.groups[0].commit_before = true;
  c.budgets.consumer_crashes = 1;
  c.observed = kObserveProcessed;
  OutboxModel m(c);
  State s = Run(m, {"claim(r1, e1)", "send(r1)", "consume(g1, 1, e1)"});
  CHECK(s.partitions[0].committed == 1);
  CHECK(s.instances[0].fetched == 1);
  CHECK(s.instances[0].phase == InstancePhase::kMidway);
  CHECK(s.group_events[0].effects == 0);  // the handler has not run
  CHECK(Why(m, s, "ack_lost(g1, 1)") ==
        "instance 1 of group g1 is midway(e1), not holding");
  const State crashed = Run(m, {"claim(r1, e1)", "send(r1)",
                                "consume(g1, 1, e1)", "crash_consumer(g1, 1)"});
  CHECK(crashed.partitions[0].position == 1);  // restarts at the commit
  CHECK(crashed.partitions[0].done == 0);
  const State ran = Run(
      m, {"claim(r1, e1)", "send(r1)", "consume(g1, 1, e1)", "step(g1, 1)"});
  CHECK(ran.group_events[0].effects == 1);
  CHECK(ran.instances[0].phase == InstancePhase::kHolding);
  CHECK(ran.partitions[0].done == 1);
}

TEST_CASE(
    "a pipelining producer's retry lands after a later write; an "
    "idempotent one keeps the partition's order") {
  for (const bool idempotent : {false, true}) {
    CAPTURE(idempotent);
    Config c = Partitioned(Strategy::kProjectionLww);
    c.relay_style = RelayStyle::kSequenceCursor;
    c.max_in_flight = 5;
    c.idempotent_producer = idempotent;
    c.budgets.send_failures = 1;
    OutboxModel m(c);
    const State s = Run(m, {"claim(r1, e1)", "send_fails(r1)", "complete(r1)",
                            "claim(r1, e2)"});
    CHECK(s.relays[0].retry == 1);  // kept across complete and claim
    if (idempotent) {
      CHECK(Why(m, s, "send(r1)") ==
            "relay r1's producer waits for the retry of its write of e1 (an "
            "idempotent producer keeps a partition's order)");
      continue;
    }
    const State t = Run(m, {"claim(r1, e1)", "send_fails(r1)", "complete(r1)",
                            "claim(r1, e2)", "send(r1)", "retry_send(r1)"});
    CHECK(t.lengths[0] == 2);
    CHECK(t.records[0] == 2);
    CHECK(t.records[1] == 1);
    CHECK(t.relays[0].retry == 0);
  }
}

TEST_CASE(
    "a handler failure retries in place, or forwards to the retry "
    "topic and moves on") {
  for (const bool topic : {false, true}) {
    CAPTURE(topic);
    Config c = Partitioned(Strategy::kProjectionLww);
    c.groups[0].retry_topic = topic;
    c.budgets.handler_failures = 1;
    OutboxModel m(c);
    const State s =
        Run(m, {"claim(r1, e1)", "send(r1)", "consume_fails(g1, 1, e1)"});
    CHECK(s.budgets.handler_failures == 0);
    CHECK(s.partitions[0].position == (topic ? 1 : 0));
    CHECK(s.partitions[0].committed == (topic ? 1 : 0));
    CHECK(s.group_events[0].ready == (topic ? 1 : 0));
    if (topic) {
      const State t =
          Run(m, {"claim(r1, e1)", "send(r1)", "consume_fails(g1, 1, e1)",
                  "consume_retry(g1, 1, e1)"});
      CHECK(t.group_keys[0].version == 1);
      CHECK(t.instances[0].partition == 0);  // no offset to commit
    } else {
      CHECK(Why(m, s, "consume_retry(g1, 1, e1)") ==
            "group g1 retries failed records in place");
    }
  }
}

TEST_CASE(
    "the partitioned broker's action texts round-trip, and name what "
    "is wrong") {
  Config c = Partitioned(Strategy::kCreditInbox, 2);
  c.broker.partitions = 2;
  for (const char* text :
       {"rebalance(g1, p2, 1)", "send_fails(r1)", "retry_send(r1)",
        "consume_fails(g1, 2, e1)", "consume_retry(g1, 1, e2)"}) {
    const Result<Action> a = ParseAction(c, text);
    REQUIRE_MESSAGE(a.ok(), text);
    CHECK(FormatAction(c, a.value()) == text);
  }
  CHECK(ParseAction(c, "rebalance(g1, p3, 1)").status().message() ==
        "partition 'p3' in 'rebalance(g1, p3, 1)' is not one of p1 to p2");
  CHECK(ParseAction(c, "rebalance(g1, 1, 1)").status().message() ==
        "partition '1' in 'rebalance(g1, 1, 1)' is not one of p1 to p2");
  Config bag = testing::MakeConfig(1, 1, {Strategy::kCreditInbox}, 2);
  CHECK(ParseAction(bag, "rebalance(g1, p1, 1)").status().message() ==
        "'rebalance(g1, p1, 1)' names a partition, but the broker is not "
        "partitioned");
}

TEST_CASE("configurations the partitioned broker refuses say which field") {
  Config bag = testing::MakeConfig(1, 1, {Strategy::kCreditInbox});
  bag.broker.partitions = 2;
  CHECK(Validate(bag).message().rfind("broker.partitions: only a partitioned "
                                      "broker has partitions",
                                      0) == 0);
  bag.broker.partitions = 1;
  bag.budgets.rebalances = 1;
  CHECK(Validate(bag).message().rfind("faults.rebalances:", 0) == 0);
  bag.budgets.rebalances = 0;
  bag.groups[0].retry_topic = true;
  CHECK(Validate(bag).message().rfind("groups[1].on_failure:", 0) == 0);

  Config c = Partitioned(Strategy::kCreditInbox);
  CHECK(Validate(c).ok());
  c.events[1].partition = 2;
  CHECK(Validate(c).message() ==
        "events[2].partition: 2 is out of range 1..1 (broker.partitions)");
  c.events[1].partition.reset();
  c.budgets.redeliveries = 1;
  CHECK(Validate(c).message().rfind("faults.redeliveries: a partitioned "
                                    "broker has no visibility timeout",
                                    0) == 0);
  c.budgets.redeliveries = 0;
  c.budgets.lost_publish_acks = 8;  // 2 events x (1 + 8) sends > 16
  CHECK(Validate(c).message().rfind(
            "broker.partitions: partition p1 could receive 18 records", 0) ==
        0);
  c.budgets.lost_publish_acks = 0;
  c.budgets.relay_crashes = kAnyBudget;
  CHECK(Validate(c).message().rfind("broker.delivery:", 0) == 0);
}

// Every reachable state of a configuration with every cell of the broker
// in use packs to bytes that decode to it, and distinct states to distinct
// bytes.
TEST_CASE(
    "the packed encoding of the partitioned broker's cells round-trips "
    "and tells states apart") {
  Config c = Partitioned(Strategy::kCreditEffectThenInbox, 2);
  c.broker.commit_fencing = false;
  c.max_in_flight = 5;
  c.groups[0].retry_topic = true;
  c.budgets.rebalances = 1;
  c.budgets.send_failures = 1;
  c.budgets.handler_failures = 1;
  c.budgets.consumer_crashes = 1;
  c.observed = kObserveKeyOrder | kObserveProcessed | kObserveStaleCommit;
  REQUIRE(Validate(c).ok());
  OutboxModel m(c);
  std::vector<State> frontier = m.InitialStates();
  std::map<std::vector<std::uint8_t>, State> encodings;
  std::size_t states = 0;
  std::vector<std::pair<Action, State>> next;
  while (!frontier.empty()) {
    State s = std::move(frontier.back());
    frontier.pop_back();
    std::vector<std::uint8_t> bytes(m.EncodedSize());
    m.Encode(s, bytes.data());
    const auto [at, fresh] = encodings.emplace(bytes, s);
    if (!fresh) {
      REQUIRE(at->second == s);  // equal bytes only for equal states
      continue;
    }
    ++states;
    REQUIRE(m.Decode(bytes.data()) == s);
    next.clear();
    m.Successors(s, next);
    for (auto& [a, t] : next) frontier.push_back(std::move(t));
  }
  CHECK(states > 1000);
  CHECK(m.EncodedSize() < 32);
}

}  // namespace
}  // namespace oc
