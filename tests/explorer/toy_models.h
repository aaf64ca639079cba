// Toy models whose state spaces are known exactly, shared by the explorer's
// tests. No outbox header here: the explorer must work on any Model.

#ifndef OUTBOX_CHECK_TESTS_EXPLORER_TOY_MODELS_H_
#define OUTBOX_CHECK_TESTS_EXPLORER_TOY_MODELS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "explorer/model_concept.h"

namespace oc::explorer::testing {

// Two counters on an N x N grid; each action increments one of them, and
// "reset" sends x back to 0 once x reached the top (so x can decrease).
struct Grid {
  struct State {
    int x = 0;
    int y = 0;
    bool operator==(const State&) const = default;
  };
  enum class Action { kNone, kIncX, kIncY, kReset };

  int n = 4;
  bool with_reset = false;
  // Actions with y == bound are "blocked by the model's bound".
  int y_bound = -1;

  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    if (s.x + 1 < n) out.push_back({Action::kIncX, {s.x + 1, s.y}});
    if (s.y + 1 < n && s.y != y_bound)
      out.push_back({Action::kIncY, {s.x, s.y + 1}});
    if (with_reset && s.x + 1 == n) out.push_back({Action::kReset, {0, s.y}});
  }
  bool BlockedByBound(const State& s) const { return s.y == y_bound; }
  std::size_t EncodedSize() const { return 2; }
  void Encode(const State& s, std::uint8_t* out) const {
    out[0] = static_cast<std::uint8_t>(s.x);
    out[1] = static_cast<std::uint8_t>(s.y);
  }
  State Decode(const std::uint8_t* in) const { return State{in[0], in[1]}; }
};

// The grid without reset is symmetric under swapping x and y.
struct SwapGrid : Grid {
  bool HasSymmetry() const { return true; }
  std::string SymmetryDescription() const { return "x and y"; }
  struct SymmetryScratch {};
  void Canonicalize(const State& s, std::uint8_t* out, SymmetryScratch&) const {
    Encode(State{std::min(s.x, s.y), std::max(s.x, s.y)}, out);
  }
  std::uint64_t OrbitSize(const State& s, SymmetryScratch&) const {
    return s.x == s.y ? 1 : 2;
  }
};

// A wide tree: state x has children x * width + 1 .. x * width + width,
// all new, so that one batch of states has millions of successors. Modulo
// `states` when set: then a finite graph, all states reached.
struct WideTree {
  using State = std::uint32_t;
  using Action = std::uint32_t;
  std::uint32_t width = 2000;
  std::uint64_t states = std::uint64_t{1} << 32;
  std::vector<State> InitialStates() const { return {0}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    const std::uint64_t first = std::uint64_t{s} * width + 1;
    if (states == (std::uint64_t{1} << 32) && first + width > states) return;
    for (std::uint32_t k = 0; k < width; ++k) {
      out.push_back({k, static_cast<State>((first + k) % states)});
    }
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 4; }
  void Encode(const State& s, std::uint8_t* out) const {
    std::memcpy(out, &s, 4);
  }
  State Decode(const std::uint8_t* in) const {
    State s;
    std::memcpy(&s, in, 4);
    return s;
  }
};

// Two processes. The first flips a bit forever (a cycle of two states);
// the second can raise `b` once, which the property forbids. The reduced
// successor function offers only the flip whenever both are enabled: a
// stubborn set (the flip touches nothing the raise does) that, without a
// cycle condition, would never let the raise happen.
struct FlipAndRaise {
  struct State {
    int a = 0;
    int b = 0;
    bool operator==(const State&) const = default;
  };
  enum class Action { kFlip, kRaise };
  struct PartialOrderScratch {
    int calls = 0;
  };

  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    out.push_back({Action::kFlip, {1 - s.a, s.b}});
    if (s.b == 0) out.push_back({Action::kRaise, {s.a, 1}});
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 2; }
  void Encode(const State& s, std::uint8_t* out) const {
    out[0] = static_cast<std::uint8_t>(s.a);
    out[1] = static_cast<std::uint8_t>(s.b);
  }
  State Decode(const std::uint8_t* in) const { return State{in[0], in[1]}; }

  bool HasPartialOrder() const { return true; }
  std::string PartialOrderDescription() const { return "flip first"; }
  bool ReducedSuccessors(const State& s,
                         std::vector<std::pair<Action, State>>& out,
                         PartialOrderScratch& scratch) const {
    ++scratch.calls;
    out.push_back({Action::kFlip, {1 - s.a, s.b}});
    return s.b == 0;  // fewer than Successors while the raise is enabled
  }
};
static_assert(PartiallyOrdered<FlipAndRaise>);

// Independent counters: n processes that each step from 0 to 1. Every
// order reaches the one terminal state; a reduction that steps the first
// process not yet done stores a line of n + 1 states, not 2^n.
struct Counters {
  struct State {
    std::uint8_t done = 0;  // bit i: process i stepped
    bool operator==(const State&) const = default;
  };
  using Action = int;
  struct PartialOrderScratch {};
  int n = 6;

  std::vector<State> InitialStates() const { return {State{}}; }
  void Successors(const State& s,
                  std::vector<std::pair<Action, State>>& out) const {
    for (int i = 0; i < n; ++i) {
      if (!((s.done >> i) & 1)) {
        out.push_back({i, State{static_cast<std::uint8_t>(s.done | 1 << i)}});
      }
    }
  }
  bool BlockedByBound(const State&) const { return false; }
  std::size_t EncodedSize() const { return 1; }
  void Encode(const State& s, std::uint8_t* out) const { out[0] = s.done; }
  State Decode(const std::uint8_t* in) const { return State{in[0]}; }
  bool HasPartialOrder() const { return true; }
  std::string PartialOrderDescription() const { return "first not done"; }
  bool ReducedSuccessors(const State& s,
                         std::vector<std::pair<Action, State>>& out,
                         PartialOrderScratch&) const {
    Successors(s, out);
    if (out.size() <= 1) return false;
    out.resize(1);
    return true;
  }
};

}  // namespace oc::explorer::testing

#endif  // OUTBOX_CHECK_TESTS_EXPLORER_TOY_MODELS_H_
