#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "common/key_hash.h"
#include "model/outbox_model.h"
#include "model/state_cells.h"
#include "model/state_codec.h"
#include "model_test_util.h"

namespace oc {
namespace {

TEST_CASE("the fingerprint of a fixed state is pinned") {
  // Golden values. Fingerprints decide only where a state sits in the
  // visited set, never a count or a trace, but a change of the hash or of
  // the canonical encoding must be deliberate.
  Config c = testing::MakeConfig(2, 2, {Strategy::kCreditInbox}, 2);
  OutboxModel m(c);
  State s = m.InitialStates().front();
  CHECK(Fingerprint(s) == 5147967926263777067ULL);
  s.events[1].token = 3;
  s.relays[0] = RelayCells{RelayPhase::kSent, 2, 3};
  CHECK(Fingerprint(s) == 10532152440281486911ULL);
}

TEST_CASE("equal states have equal fingerprints, and each field counts") {
  OutboxModel m(testing::MakeConfig(1, 1, {Strategy::kCreditNaive}));
  const State base = m.InitialStates().front();
  State copy = base;
  CHECK(Fingerprint(copy) == Fingerprint(base));
  std::vector<State> variants(6, base);
  variants[0].events[0].offered = 1;
  variants[1].relays[0].token = 1;
  variants[2].instances[0].memo = 1;
  variants[3].group_events[0].sent = 1;
  variants[4].group_keys[0].cache = 1;
  variants[5].budgets.redeliveries = 1;
  for (const State& v : variants) CHECK(Fingerprint(v) != Fingerprint(base));
}

TEST_CASE("changed cells name what a step changed, in durable-state words") {
  Config c = testing::MakeConfig(2, 1, {Strategy::kCreditInbox});
  c.relays = {"A", "B"};
  c.groups[0].name = "billing";
  OutboxModel m(c);
  const State s0 = m.InitialStates().front();
  const State s1 = m.Apply(s0, ParseAction(c, "claim(A, e1)").value()).value();
  const std::vector<CellChange> changes = ChangedCells(m, s0, s1);
  CHECK(changes == std::vector<CellChange>{
                       {"outbox[e1].owner", "-", "A"},
                       {"outbox[e1].token", "0", "1"},
                       {"outbox[e1].lease", "none", "active"},
                       {"relay[A]", "idle", "claimed(e1, token 1)"},
                   });
  const State s2 = m.Apply(s1, ParseAction(c, "send(A)").value()).value();
  const State s3 =
      m.Apply(s2, ParseAction(c, "consume(billing, 1, e1)").value()).value();
  CHECK(ChangedCells(m, s2, s3) ==
        std::vector<CellChange>{
            {"broker.ready[billing][e1]", "1", "0"},
            {"instance[billing/1]", "idle", "holding(e1)"},
            {"billing.effects[e1]", "0", "1"},
            {"billing.inbox[e1]", "0", "1"},
        });
  CHECK(ActionDetail(m, s1, ParseAction(c, "send(A)").value()) ==
        "e1, token 1");
  CHECK(ActionDetail(m, s0, ParseAction(c, "claim(B, e1)").value()) ==
        "token 1");
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

TEST_CASE("the state codec round-trips and tells every reachable state apart") {
  Config c = testing::MakeConfig(
      2, 2, {Strategy::kCreditCheckThenAct, Strategy::kProjectionMonotonic});
  c.budgets.premature_expiries = 1;
  OutboxModel m(c);
  std::vector<State> frontier = m.InitialStates();
  std::vector<State> seen;
  while (!frontier.empty() && seen.size() < 2000) {
    State s = frontier.back();
    frontier.pop_back();
    if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
    seen.push_back(s);
    std::vector<std::pair<Action, State>> next;
    m.Successors(s, next);
    for (auto& [a, t] : next) frontier.push_back(t);
  }
  REQUIRE(seen.size() > 100);
  std::set<std::vector<std::uint8_t>> encodings;
  for (const State& s : seen) {
    std::vector<std::uint8_t> bytes(m.EncodedSize());
    m.Encode(s, bytes.data());
    CHECK(m.Decode(bytes.data()) == s);
    encodings.insert(bytes);
    // Renamed by the identity, the encoding is the same.
    const Renaming identity = Renaming::Identity();
    std::vector<std::uint8_t> renamed(m.EncodedSize());
    StateCodec(c, m.InitialStates().front())
        .EncodeRenamed(s, identity, renamed.data());
    CHECK(renamed == bytes);
  }
  CHECK(encodings.size() == seen.size());
  // Packed with the processor's bit gather and scatter instructions where
  // it has them, and field by field: the same bytes, the same states.
  StateCodec either(c, m.InitialStates().front());
  StateCodec by_field(c, m.InitialStates().front());
  by_field.UseFieldByField();
  CHECK_FALSE(by_field.bit_instructions());
  MESSAGE("bit instructions: ", either.bit_instructions());
  for (const State& s : seen) {
    std::vector<std::uint8_t> a(m.EncodedSize()), b(m.EncodedSize());
    either.Encode(s, a.data());
    by_field.Encode(s, b.data());
    CHECK(a == b);
    CHECK(either.Decode(b.data()) == s);
    CHECK(by_field.Decode(a.data()) == s);
  }
  // Field widths from the bounds: tokens <= 1 + X = 2 and copies <= 2 take
  // 2 bits; relay and event references 2; phases and leases 2.
  //   events   2 x (published 1, owner 2, token 2, lease 2, completed 2,
  //                 offered 2)                                    = 22
  //   relays   2 x (phase 2, event 2, token 2)                    = 12
  //   instances (phase 2, event 2, memo 1) + (2, 2, memo unused)  =  9
  //   group cells: check_then_act 2 x (ready 2, effects 2, inbox 1)
  //                + projection 2 x ready 2                       = 14
  //   key cells: the projection's version (max 2)                 =  2
  //   budgets: only X = 1                                         =  1
  CHECK(m.EncodedSize() == (22 + 12 + 9 + 14 + 2 + 1 + 7) / 8);
}

TEST_CASE("a key hashed as it is encoded hashes as HashBytes does") {
  // Configs whose keys end on a whole word, and on bytes past one in each
  // of the pieces the encoder writes last (four, two, one).
  std::vector<Config> configs = {
      testing::MakeConfig(1, 1, {Strategy::kCreditNaive}),
      testing::MakeConfig(
          2, 2,
          {Strategy::kCreditCheckThenAct, Strategy::kProjectionMonotonic}),
      testing::MakeConfig(3, 2, {Strategy::kCreditInbox}, 2),
      testing::MakeConfig(
          2, 3, {Strategy::kCreditEffectThenInbox, Strategy::kCreditInbox}),
      testing::MakeConfig(
          3, 3, {Strategy::kCreditInbox, Strategy::kProjectionMonotonic}),
      testing::MakeConfig(1, 2, {Strategy::kCreditCheckThenAct}, 2),
      testing::MakeConfig(2, 1, {Strategy::kCreditNaive}),
  };
  configs[1].budgets.premature_expiries = 1;
  configs[2].budgets.relay_crashes = 1;
  configs[4].budgets.premature_expiries = 2;
  configs[4].budgets.lost_publish_acks = 1;
  std::set<std::size_t> tails;
  for (const Config& c : configs) {
    OutboxModel m(c);
    StateCodec by_field(c, m.InitialStates().front());
    by_field.UseFieldByField();
    const std::size_t n = m.EncodedSize();
    CAPTURE(n);
    tails.insert(n % 8);
    std::vector<State> frontier = m.InitialStates();
    std::set<std::vector<std::uint8_t>> seen;
    while (!frontier.empty() && seen.size() < 500) {
      const State s = frontier.back();
      frontier.pop_back();
      std::vector<std::uint8_t> plain(n), hashed(n), field(n);
      m.Encode(s, plain.data());
      if (!seen.insert(plain).second) continue;
      const std::uint64_t hash = m.EncodeHashed(s, hashed.data());
      CHECK(hashed == plain);
      CHECK(hash == HashBytes(plain.data(), n));
      CHECK(by_field.EncodeHashed(s, field.data()) == hash);
      CHECK(field == plain);
      std::vector<std::pair<Action, State>> next;
      m.Successors(s, next);
      for (auto& [a, t] : next) frontier.push_back(t);
    }
    CHECK(seen.size() >= 8);
  }
  // Keys of 2, 3, 5, 8 and 13 bytes.
  CHECK(tails == std::set<std::size_t>{0, 2, 3, 5});
}

}  // namespace
}  // namespace oc
