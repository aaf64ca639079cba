// The fair-cycle question asked of a symmetry quotient must get the answer
// the whole graph gives. Random models of k interchangeable processes
// (each with a local state, all sharing one global value and one table of
// local moves), whose badness, faults and compassion pairs are symmetric,
// are checked both ways: FindFairLasso / FindCompassionateLasso on the
// whole graph, QuotientHasFairRun on the graph of sorted states.

#include "explorer/quotient_fairness.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "explorer/breadth_first_search.h"
#include "explorer/compassion.h"
#include "explorer/fair_cycles.h"
#include "explorer/state_graph.h"

namespace {

constexpr int kMaxProcesses = 3;
using Perm = std::array<std::uint8_t, kMaxProcesses>;  // new index from old

// All k! permutations, named by their place in the list (0: identity).
struct Perms {
  int k = 0;
  std::vector<Perm> all;
  explicit Perms(int processes) : k(processes) {
    Perm p{};
    std::iota(p.begin(), p.begin() + k, std::uint8_t{0});
    do {
      all.push_back(p);
    } while (std::next_permutation(p.begin(), p.begin() + k));
  }
  std::uint32_t Id(const Perm& p) const {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (std::equal(p.begin(), p.begin() + k, all[i].begin())) {
        return static_cast<std::uint32_t>(i);
      }
    }
    FAIL("not a permutation");
    return 0;
  }
};

// Processes p = 0 .. k-1 with local states below `locals`, a global value
// below `globals`, and `kinds` kinds of move: move[kind][local][global] is
// the (local, global) after, or none (-1). Action (kind, p) moves process
// p. Fault kinds, a symmetric badness (a function of the sorted locals and
// the global), and per process a compassion pair: kinds that request it
// (take from process p's pile) and kinds that respond (add to it).
struct Processes {
  struct State {
    std::uint8_t global = 0;
    Perm local{};
    bool operator==(const State&) const = default;
  };
  struct Action {
    std::uint8_t kind = 0, process = 0;
    bool operator==(const Action&) const = default;
  };

  int k = 2, locals = 2, globals = 1, kinds = 2;
  std::vector<std::vector<std::vector<std::pair<int, int>>>> move;
  std::vector<bool> fault, requester, responder;
  std::uint64_t bad_seed = 0;

  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    for (int kind = 0; kind < kinds; ++kind) {
      for (int p = 0; p < k; ++p) {
        const auto [l, g] = move[kind][s.local[p]][s.global];
        if (l < 0) continue;
        State t = s;
        t.local[p] = static_cast<std::uint8_t>(l);
        t.global = static_cast<std::uint8_t>(g);
        out.push_back({Action{static_cast<std::uint8_t>(kind),
                              static_cast<std::uint8_t>(p)},
                       t});
      }
    }
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 1 + kMaxProcesses; }
  void Encode(const State& s, std::uint8_t* out) const {
    out[0] = s.global;
    for (int p = 0; p < kMaxProcesses; ++p) out[1 + p] = s.local[p];
  }
  State Decode(const std::uint8_t* in) const {
    State s;
    s.global = in[0];
    for (int p = 0; p < kMaxProcesses; ++p) s.local[p] = in[1 + p];
    return s;
  }
  bool Bad(const State& s) const {
    std::vector<std::uint8_t> sorted(s.local.begin(), s.local.begin() + k);
    std::sort(sorted.begin(), sorted.end());
    std::uint64_t h = bad_seed ^ s.global;
    for (int p = 0; p < k; ++p) h = h * 1000003u + sorted[p] + 1;
    h ^= h >> 17;
    return h % 4 != 0;  // mostly bad, so cycles among bad states are common
  }
  // Symmetry: a state's locals sorted stand for its orbit.
  struct SymmetryScratch {};
  bool HasSymmetry() const { return true; }
  std::string SymmetryDescription() const { return "processes"; }
  void Canonicalize(const State& s, std::uint8_t* out, SymmetryScratch&) const {
    State sorted = s;
    for (int i = 1; i < k; ++i) {  // an insertion sort of k <= 3 locals
      for (int j = i; j > 0 && sorted.local[j - 1] > sorted.local[j]; --j) {
        std::swap(sorted.local[j - 1], sorted.local[j]);
      }
    }
    Encode(sorted, out);
  }
  std::uint64_t OrbitSize(const State& s, SymmetryScratch&) const {
    std::uint64_t orbit = 1;
    for (int p = 2; p <= k; ++p) orbit *= static_cast<std::uint64_t>(p);
    std::array<int, 256> seen{};
    for (int p = 0; p < k; ++p) {
      orbit /= static_cast<std::uint64_t>(++seen[s.local[p]]);
    }
    return orbit;
  }
  std::uint64_t Class(const Action& a) const { return a.kind * 8u + a.process; }
  std::uint64_t Requests(const Action& a) const {
    return requester[a.kind] ? std::uint64_t{1} << a.process : 0;
  }
  std::uint64_t Responses(const Action& a) const {
    return responder[a.kind] ? std::uint64_t{1} << a.process : 0;
  }
};

Processes RandomProcesses(std::mt19937& rng, bool pairs) {
  auto pick = [&](int n) {
    return static_cast<int>(rng() % static_cast<unsigned>(n));
  };
  Processes m;
  m.k = 2 + pick(2);
  m.locals = 2 + pick(2);
  m.globals = 1 + pick(2);
  m.kinds = 2 + pick(2);
  m.bad_seed = rng();
  m.move.assign(m.kinds, std::vector<std::vector<std::pair<int, int>>>(
                             m.locals, std::vector<std::pair<int, int>>(
                                           m.globals, {-1, 0})));
  for (int kind = 0; kind < m.kinds; ++kind) {
    for (int l = 0; l < m.locals; ++l) {
      for (int g = 0; g < m.globals; ++g) {
        if (pick(10) < 6)
          m.move[kind][l][g] = {pick(m.locals), pick(m.globals)};
      }
    }
    m.fault.push_back(pick(5) == 0);
    m.requester.push_back(pairs && pick(3) == 0);
    m.responder.push_back(pairs && pick(3) == 0);
  }
  return m;
}

// The quotient's keying: a state's locals sorted, and the permutation that
// takes the sorted state back to the real one.
struct SortedKeying {
  const Processes& model;
  const Perms& perms;
  struct Scratch {};
  using Label = std::uint32_t;
  void Sort(const Processes::State& s, std::uint8_t* out, Perm& to) const {
    std::vector<int> order(static_cast<std::size_t>(model.k));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return s.local[a] < s.local[b]; });
    Processes::State sorted = s;
    for (int pos = 0; pos < model.k; ++pos) {
      sorted.local[pos] = s.local[order[pos]];
      to[order[pos]] = static_cast<std::uint8_t>(pos);
    }
    model.Encode(sorted, out);
  }
  void KeyInitial(const Processes::State& s, std::uint8_t* out,
                  Scratch&) const {
    Perm to{};
    Sort(s, out, to);
  }
  Label Key(const Processes::State&, const Processes::Action&,
            const Processes::State& t, std::uint8_t* out, Scratch&) const {
    Perm to{};
    Sort(t, out, to);
    // sigma takes the representative to t: the inverse of `to`.
    Perm sigma{};
    for (int p = 0; p < model.k; ++p)
      sigma[to[p]] = static_cast<std::uint8_t>(p);
    return perms.Id(sigma);
  }
  std::uint32_t Intern(const Label& label) const { return label; }
};

// The permutations acting on classes (kind * 8 + process) and on pair
// masks (bit p for process p).
struct PermGroup {
  const Perms& perms;
  std::uint32_t Identity() const { return 0; }
  std::uint32_t Compose(std::uint32_t a, std::uint32_t b) const {
    Perm r{};
    for (int p = 0; p < perms.k; ++p) r[p] = perms.all[a][perms.all[b][p]];
    return perms.Id(r);
  }
  std::uint32_t Inverse(std::uint32_t a) const {
    Perm r{};
    for (int p = 0; p < perms.k; ++p) {
      r[perms.all[a][p]] = static_cast<std::uint8_t>(p);
    }
    return perms.Id(r);
  }
  std::uint64_t ActOnClass(std::uint32_t a, std::uint64_t c) const {
    return (c / 8) * 8 + perms.all[a][c % 8];
  }
  std::uint64_t ActOnPairs(std::uint32_t a, std::uint64_t mask) const {
    std::uint64_t out = 0;
    for (int p = 0; p < perms.k; ++p) {
      if (mask >> p & 1) out |= std::uint64_t{1} << perms.all[a][p];
    }
    return out;
  }
};

// Vertex for vertex and edge for edge, with their labels.
template <class Graph>
void CheckSameGraph(const Graph& a, const Graph& b) {
  REQUIRE(a.num_vertices() == b.num_vertices());
  REQUIRE(a.num_edges() == b.num_edges());
  for (std::uint32_t v = 0; v < a.num_vertices(); ++v) {
    CHECK(std::equal(a.encoding(v), a.encoding(v) + 1 + kMaxProcesses,
                     b.encoding(v)));
    CHECK(a.terminal(v) == b.terminal(v));
    CHECK(a.bounded_dead_end(v) == b.bounded_dead_end(v));
    CHECK(a.out_begin(v) == b.out_begin(v));
    CHECK(a.out_end(v) == b.out_end(v));
  }
  for (std::size_t e = 0; e < a.num_edges(); ++e) {
    CHECK(a.target(e) == b.target(e));
    CHECK(a.action(e) == b.action(e));
    CHECK(a.label(e) == b.label(e));
  }
}

// Both answers for one model.
std::pair<bool, bool> BothWays(const Processes& m) {
  const auto whole = oc::explorer::BuildStateGraph(m);
  REQUIRE(whole.has_value());
  const auto& g = *whole;
  auto state = [&](const auto& graph, std::size_t v) {
    return graph.state(m, static_cast<std::uint32_t>(v));
  };
  const bool concrete =
      oc::explorer::FindCompassionateLasso(
          g, [&](std::size_t v) { return m.Bad(state(g, v)); },
          [&](std::size_t e) { return m.fault[g.action(e).kind]; },
          [&](std::size_t e) { return m.Class(g.action(e)); },
          [&](std::size_t e) { return m.Requests(g.action(e)); },
          [&](std::size_t e) { return m.Responses(g.action(e)); })
          .has_value();
  const Perms perms(m.k);
  SortedKeying keying{m, perms};
  const auto quotient =
      oc::explorer::BuildKeyedGraph(m, keying, ~std::uint64_t{0}, 0, 0, 1);
  REQUIRE(quotient.has_value());
  const auto& q = *quotient;
  CHECK(q.num_vertices() <= g.num_vertices());
  // A search recording the quotient as it goes records the same graph.
  for (const int threads : {1, 2}) {
    SortedKeying recording{m, perms};
    oc::explorer::Options options;
    options.threads = threads;
    const auto e = oc::explorer::ExploreRecording(
        m, std::span<const oc::explorer::Property<Processes::State>>(), options,
        recording, ~std::uint64_t{0});
    REQUIRE(e.recorded.has_value());
    CheckSameGraph(*e.recorded, q);
  }
  PermGroup group{perms};
  const bool reduced = oc::explorer::QuotientHasFairRun(
      q, [&](std::size_t v) { return m.Bad(state(q, v)); },
      [&](std::size_t e) { return m.fault[q.action(e).kind]; },
      [&](std::size_t e) { return m.Class(q.action(e)); },
      [&](std::size_t e) { return q.label(e); },
      [&](std::size_t e) { return m.Requests(q.action(e)); },
      [&](std::size_t e) { return m.Responses(q.action(e)); }, group);
  return {concrete, reduced};
}

// 400 random models from `seed`: the two answers agree, and both occur.
void CheckRandomModels(unsigned seed, bool pairs) {
  std::mt19937 rng(seed);
  int found = 0;
  for (int round = 0; round < 400; ++round) {
    const Processes m = RandomProcesses(rng, pairs);
    const auto [concrete, reduced] = BothWays(m);
    CAPTURE(round);
    CHECK(concrete == reduced);
    found += concrete ? 1 : 0;
  }
  CHECK(found > 40);
  CHECK(found < 360);
}

TEST_CASE(
    "the quotient agrees with the whole graph on random symmetric models, "
    "weak fairness only") {
  CheckRandomModels(20261205, /*pairs=*/false);
}

TEST_CASE(
    "the quotient agrees with the whole graph on random symmetric models, "
    "with compassion pairs") {
  CheckRandomModels(5120, /*pairs=*/true);
}

}  // namespace
