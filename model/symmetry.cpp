#include "model/symmetry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <numeric>

namespace oc {
namespace {

std::uint64_t Factorial(int n) {
  std::uint64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= static_cast<std::uint64_t>(i);
  return f;
}

std::uint64_t SaturatingProduct(std::uint64_t a, std::uint64_t b) {
  std::uint64_t p;
  if (__builtin_mul_overflow(a, b, &p)) return UINT64_MAX;
  return p;
}

// n! / (k1! k2! ...) where the runs k sum to n: the ways to arrange n
// things of which runs are indistinguishable. n <= 16, so n! fits.
std::uint64_t Multinomial(const std::vector<int>& runs) {
  int n = 0;
  std::uint64_t denominator = 1;
  for (int k : runs) {
    n += k;
    denominator *= Factorial(k);
  }
  return Factorial(n) / denominator;
}

// The sizes of runs of equal keys in a sorted array.
void Runs(const std::uint64_t* keys, int n, std::vector<int>* runs) {
  for (int i = 0; i < n;) {
    int j = i + 1;
    while (j < n && keys[j] == keys[i]) ++j;
    runs->push_back(j - i);
    i = j;
  }
}

// Everything about an event but its name.
bool Interchangeable(const Event& a, const Event& b) {
  return a.type == b.type && a.key == b.key && a.version == b.version &&
         a.account == b.account && a.amount == b.amount;
}

constexpr int kIndexBits = 6;  // instance or relay index, < 64

// Every size of encoding fits this buffer: 1238 fields of at most 16 bits.
constexpr std::size_t kMaxEncoded = 4096;

}  // namespace

Symmetry::Symmetry(const Config& config)
    : events_(static_cast<int>(config.events.size())),
      relays_(static_cast<int>(config.relays.size())),
      relay_names_(config.relays) {
  int first = 0;
  for (const Group& g : config.groups) {
    group_first_.push_back(first);
    group_names_.push_back(g.name);
    first += g.instances;
  }
  group_first_.push_back(first);
  for (const Event& e : config.events) event_names_.push_back(e.name);

  // Classes of interchangeable events, in order of first member.
  std::vector<bool> placed(config.events.size(), false);
  std::uint64_t permutations = 1;
  for (std::size_t e = 0; e < config.events.size(); ++e) {
    if (placed[e]) continue;
    std::vector<int> members;
    for (std::size_t f = e; f < config.events.size(); ++f) {
      if (!placed[f] && Interchangeable(config.events[e], config.events[f])) {
        placed[f] = true;
        members.push_back(static_cast<int>(f));
      }
    }
    const std::uint64_t ways = Factorial(static_cast<int>(members.size()));
    if (members.size() < 2 || permutations * ways > kMaxEventPermutations) {
      continue;
    }
    permutations *= ways;
    event_classes_.push_back(members);
  }
  // Every product of permutations of the classes, identity first.
  Permutation identity{};
  std::iota(identity.begin(), identity.end(), std::uint8_t{0});
  event_perms_.push_back(identity);
  for (const std::vector<int>& members : event_classes_) {
    std::vector<Permutation> next;
    for (const Permutation& base : event_perms_) {
      std::vector<int> order = members;  // sorted: next_permutation's start
      do {
        Permutation p = base;
        for (std::size_t i = 0; i < members.size(); ++i) {
          p[static_cast<std::size_t>(members[i])] =
              static_cast<std::uint8_t>(order[i]);
        }
        next.push_back(p);
      } while (std::next_permutation(order.begin(), order.end()));
    }
    event_perms_ = std::move(next);
  }
}

bool Symmetry::trivial() const {
  if (relays_ > 1 || !event_classes_.empty()) return false;
  for (std::size_t g = 0; g + 1 < group_first_.size(); ++g) {
    if (group_first_[g + 1] - group_first_[g] > 1) return false;
  }
  return true;
}

std::string Symmetry::Describe() const {
  std::vector<std::string> parts;
  if (relays_ > 1) {
    parts.push_back(
        fmt::format("relays {} ({}!)", fmt::join(relay_names_, " "), relays_));
  }
  for (std::size_t g = 0; g + 1 < group_first_.size(); ++g) {
    const int k = group_first_[g + 1] - group_first_[g];
    if (k > 1) {
      parts.push_back(fmt::format("instances of {} ({}!)", group_names_[g], k));
    }
  }
  for (const std::vector<int>& members : event_classes_) {
    std::vector<std::string> names;
    for (int e : members) names.push_back(event_names_[e]);
    parts.push_back(
        fmt::format("events {} ({}!)", fmt::join(names, " "), members.size()));
  }
  return parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, "; "));
}

State Symmetry::Arrange(const State& s, const Permutation& to,
                        std::vector<int>* relay_ties,
                        std::vector<int>* instance_ties) const {
  State t = s;
  const int events = events_;
  const int groups = static_cast<int>(group_first_.size()) - 1;
  auto event_ref = [&](std::uint8_t ref) -> std::uint8_t {
    return ref == 0 ? 0 : static_cast<std::uint8_t>(to[ref - 1] + 1);
  };
  for (int e = 0; e < events; ++e) t.events[to[e]] = s.events[e];
  for (int g = 0; g < groups; ++g) {
    for (int e = 0; e < events; ++e) {
      t.group_events[g * events + to[e]] = s.group_events[g * events + e];
    }
  }
  // Relays, by their cells and then by the (renamed) events they own.
  std::array<std::uint64_t, kMaxRelays> owned{};
  for (int e = 0; e < events; ++e) {
    if (t.events[e].owner != 0) owned[t.events[e].owner - 1] |= 1u << e;
  }
  std::array<std::uint64_t, kMaxRelays> keys;
  for (int r = 0; r < relays_; ++r) {
    const RelayCells& c = s.relays[r];
    const std::uint64_t key =
        (static_cast<std::uint64_t>(c.phase) << 40) |
        (static_cast<std::uint64_t>(event_ref(c.event)) << 32) |
        (static_cast<std::uint64_t>(c.token) << 16) | owned[r];
    keys[r] = (key << kIndexBits) | static_cast<std::uint64_t>(r);
  }
  std::sort(keys.begin(), keys.begin() + relays_);
  std::array<std::uint8_t, kMaxRelays> new_index{};
  for (int pos = 0; pos < relays_; ++pos) {
    const int r = static_cast<int>(keys[pos] & ((1u << kIndexBits) - 1));
    new_index[r] = static_cast<std::uint8_t>(pos);
    RelayCells c = s.relays[r];
    c.event = event_ref(c.event);
    t.relays[pos] = c;
    keys[pos] >>= kIndexBits;
  }
  if (relay_ties) Runs(keys.data(), relays_, relay_ties);
  for (int e = 0; e < events; ++e) {
    std::uint8_t& owner = t.events[e].owner;
    if (owner != 0) owner = static_cast<std::uint8_t>(new_index[owner - 1] + 1);
  }
  // Each group's instances, by their cells.
  std::array<std::uint64_t, kMaxInstances> ikeys;
  for (int g = 0; g < groups; ++g) {
    const int first = group_first_[g];
    const int k = group_first_[g + 1] - first;
    if (k < 2) {
      if (k == 1)
        t.instances[first].event = event_ref(s.instances[first].event);
      continue;
    }
    for (int i = 0; i < k; ++i) {
      const InstanceCells& c = s.instances[first + i];
      const std::uint64_t key =
          (static_cast<std::uint64_t>(c.phase) << 16) |
          (static_cast<std::uint64_t>(event_ref(c.event)) << 8) | c.memo;
      ikeys[i] = (key << kIndexBits) | static_cast<std::uint64_t>(i);
    }
    std::sort(ikeys.begin(), ikeys.begin() + k);
    for (int pos = 0; pos < k; ++pos) {
      const int i = static_cast<int>(ikeys[pos] & ((1u << kIndexBits) - 1));
      InstanceCells c = s.instances[first + i];
      c.event = event_ref(c.event);
      t.instances[first + pos] = c;
      ikeys[pos] >>= kIndexBits;
    }
    if (instance_ties) Runs(ikeys.data(), k, instance_ties);
  }
  return t;
}

void Symmetry::Canonicalize(const State& s, const StateCodec& codec,
                            std::uint8_t* out) const {
  const std::size_t n = codec.size();
  codec.Encode(Arrange(s, event_perms_[0], nullptr, nullptr), out);
  std::array<std::uint8_t, kMaxEncoded> candidate;
  for (std::size_t p = 1; p < event_perms_.size(); ++p) {
    codec.Encode(Arrange(s, event_perms_[p], nullptr, nullptr),
                 candidate.data());
    if (std::memcmp(candidate.data(), out, n) < 0) {
      std::memcpy(out, candidate.data(), n);
    }
  }
}

std::uint64_t Symmetry::OrbitSize(const State& s,
                                  const StateCodec& codec) const {
  const std::size_t n = codec.size();
  std::array<std::uint8_t, kMaxEncoded> best, candidate;
  std::vector<int> relay_ties, instance_ties, best_relay_ties,
      best_instance_ties;
  std::uint64_t at_best = 0;  // event permutations that reach the least
  for (std::size_t p = 0; p < event_perms_.size(); ++p) {
    relay_ties.clear();
    instance_ties.clear();
    codec.Encode(Arrange(s, event_perms_[p], &relay_ties, &instance_ties),
                 candidate.data());
    const int order =
        p == 0 ? -1 : std::memcmp(candidate.data(), best.data(), n);
    if (order < 0) {
      best = candidate;
      best_relay_ties = relay_ties;
      best_instance_ties = instance_ties;
      at_best = 1;
    } else if (order == 0) {
      ++at_best;
    }
  }
  // |G| / |stabilizer|, taken factor by factor: the event part, then the
  // arrangements of relays and of each group's instances.
  std::uint64_t orbit = event_perms_.size() / at_best;
  orbit = SaturatingProduct(orbit, Multinomial(best_relay_ties));
  std::size_t at = 0;
  for (std::size_t g = 0; g + 1 < group_first_.size(); ++g) {
    const int k = group_first_[g + 1] - group_first_[g];
    if (k < 2) continue;
    std::vector<int> runs;
    for (int sum = 0; sum < k; sum += best_instance_ties[at++]) {
      runs.push_back(best_instance_ties[at]);
    }
    orbit = SaturatingProduct(orbit, Multinomial(runs));
  }
  return orbit;
}

}  // namespace oc
