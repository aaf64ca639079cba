#include "model/symmetry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "model/relay_styles.h"

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

// Every attribute name some event of `config` carries, in the order of
// the events and their attributes: type, key, account, version, amount,
// then each event's own.
std::vector<std::string> CarriedAttributes(const Config& config) {
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(name);
    }
  };
  for (const Event& e : config.events) {
    if (!e.type.empty()) add("type");
    if (e.key) add("key");
    if (e.account) add("account");
    if (e.version) add("version");
    if (e.amount) add("amount");
    for (const EventAttribute& a : e.attributes) add(a.name);
  }
  return names;
}

// Whether every event agrees with `first` on attribute `name`.
bool AgreeOn(const Event& first, const std::vector<Event>& events,
             const std::string& name) {
  return std::all_of(events.begin(), events.end(), [&](const Event& e) {
    return TextAttribute(e, name) == TextAttribute(first, name) &&
           NumberAttribute(e, name) == NumberAttribute(first, name);
  });
}

// Whether a and b agree on every attribute in `read`.
bool AgreeOn(const Event& a, const Event& b,
             const std::vector<std::string>& read) {
  return std::all_of(read.begin(), read.end(), [&](const std::string& n) {
    return TextAttribute(a, n) == TextAttribute(b, n) &&
           NumberAttribute(a, n) == NumberAttribute(b, n);
  });
}

constexpr int kIndexBits = 6;  // instance or relay index, < 64
// The partitioned broker's part of an instance's sort key (Arrange).
static_assert(kMaxPartitions <= 4 && kMaxRecords <= 16 && kMaxBudget < 16,
              "an instance's sort key packs a partition in 3 bits, an "
              "offset and an epoch in 4 each, and owned partitions in 4");

// Every size of encoding fits this buffer: 1810 fields of at most 16 bits.
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
  // A partitioned broker (docs/SEMANTICS.md section 16) starts partition p
  // at instance p mod K of each group, and keeps records of events in
  // order: the instances that start with a partition are each a class of
  // their own, and those that start with none (K > P) are interchangeable.
  // Partitions never are: events go to them by key.
  const bool partitioned = config.broker.delivery == Delivery::kPartitioned;
  if (partitioned) {
    partitions_ = config.broker.partitions;
    group_base_ = group_first_;
    for (std::size_t g = 0; g < config.groups.size(); ++g) {
      instance_group_.insert(
          instance_group_.end(),
          static_cast<std::size_t>(config.groups[g].instances),
          static_cast<int>(g));
    }
    group_first_.clear();
    group_names_.clear();
    const int partitions = config.broker.partitions;
    for (std::size_t g = 0; g < config.groups.size(); ++g) {
      const int base = group_base_[g];
      const int k = config.groups[g].instances;
      const int assigned = std::min(partitions, k);
      for (int i = 0; i < assigned; ++i) {
        group_first_.push_back(base + i);
        group_names_.push_back(config.groups[g].name);
      }
      if (assigned < k) {
        group_first_.push_back(base + assigned);
        group_names_.push_back(fmt::format("{} that start with no partition",
                                           config.groups[g].name));
      }
    }
    group_first_.push_back(first);
  }

  // Classes of interchangeable events, in order of first member. With a
  // sequence cursor or a change-data-capture log, an event's index is its
  // id or its place in the log, which the relay reads in order: no two
  // events are interchangeable there.
  // applied_in_key_order ranks a key's events by their place in the
  // configuration, and a partition's records name events: neither lets
  // two events swap.
  const bool ordered_events = !StyleOf(config).offset_cell.empty() ||
                              partitioned ||
                              (config.observed & kObserveKeyOrder) != 0;
  std::vector<bool> placed(config.events.size(), ordered_events);
  // Events are told apart by the attributes something reads: the model's
  // rules and, when the caller said what they read, the checks. Without
  // that word every attribute counts. An event a check names is fixed.
  const std::vector<std::string> carried = CarriedAttributes(config);
  std::vector<std::string> read = carried;
  if (config.checks_read) {
    std::vector<std::string> wanted = AttributesTheModelReads(config);
    wanted.insert(wanted.end(), config.checks_read->attributes.begin(),
                  config.checks_read->attributes.end());
    read.clear();
    for (const std::string& name : carried) {
      if (std::find(wanted.begin(), wanted.end(), name) != wanted.end()) {
        read.push_back(name);
      } else if (!AgreeOn(config.events.front(), config.events, name)) {
        ignored_attributes_.push_back(name);  // it would tell events apart
      }
    }
    for (std::size_t e = 0; e < config.events.size(); ++e) {
      const std::vector<std::string>& named = config.checks_read->events;
      if (std::find(named.begin(), named.end(), config.events[e].name) !=
          named.end()) {
        placed[e] = true;
      }
    }
  }
  read_attributes_ = read;
  // An event whose cells of a declared table by event start at a value of
  // their own is told apart from the others.
  for (const Group& g : config.groups) {
    if (!g.declared) continue;
    for (const InitialValue& v : g.initial) {
      for (const UserTable& t : g.declared->tables) {
        if (t.name != v.table || t.by >= 0) continue;
        for (std::size_t e = 0; e < config.events.size(); ++e) {
          if (config.events[e].name == v.at) placed[e] = true;
        }
      }
    }
  }
  std::uint64_t permutations = 1;
  for (std::size_t e = 0; e < config.events.size(); ++e) {
    if (placed[e]) continue;
    std::vector<int> members;
    for (std::size_t f = e; f < config.events.size(); ++f) {
      if (!placed[f] && AgreeOn(config.events[e], config.events[f], read)) {
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
  event_group_order_ = permutations;
  in_class_.assign(config.events.size(), false);
  for (const std::vector<int>& members : event_classes_) {
    for (int e : members) in_class_[static_cast<std::size_t>(e)] = true;
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
  if (parts.empty()) return "none";
  // Say which attributes made events differ, when some were set aside.
  if (!ignored_attributes_.empty()) {
    parts.push_back(fmt::format(
        "event attributes {} ignored, since nothing checked reads them{}",
        fmt::join(ignored_attributes_, ", "),
        read_attributes_.empty()
            ? std::string()
            : fmt::format(" ({} read)", fmt::join(read_attributes_, ", "))));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

void Symmetry::Candidates(const State& s, std::vector<Permutation>* out) const {
  out->clear();
  Permutation identity{};
  std::iota(identity.begin(), identity.end(), std::uint8_t{0});
  out->push_back(identity);
  if (event_classes_.empty()) return;
  const int events = events_;
  const int groups = static_cast<int>(group_first_.size()) - 1;
  // A signature per event from what no renaming changes.
  // Only the first `events` entries are used (and set: no zeroing of the
  // whole arrays, which showed in profiles).
  std::array<std::uint64_t, kMaxEvents> signature;
  auto mix = [](std::uint64_t h, std::uint64_t v) {
    h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 31);
  };
  for (int e = 0; e < events; ++e) {
    if (!in_class_[static_cast<std::size_t>(e)]) continue;
    const EventCells& c = s.events[e];
    std::uint64_t h =
        mix(0, c.published | (c.token << 1) |
                   (static_cast<std::uint64_t>(c.lease) << 9) |
                   (static_cast<std::uint64_t>(c.completed_token) << 11) |
                   (static_cast<std::uint64_t>(c.offered) << 19) |
                   (static_cast<std::uint64_t>(c.clock) << 27) |
                   (static_cast<std::uint64_t>(c.window) << 43) |
                   (static_cast<std::uint64_t>(c.begun) << 59));
    for (int g = 0; g < groups; ++g) {
      const GroupEventCells& t = s.group_events[g * events + e];
      h = mix(h, t.ready | (t.effects << 8) | (t.inbox << 16) |
                     (t.ledger << 17) |
                     (static_cast<std::uint64_t>(t.sent) << 18) |
                     (static_cast<std::uint64_t>(t.inbox_age) << 26) |
                     (static_cast<std::uint64_t>(t.parked) << 42) |
                     (static_cast<std::uint64_t>(t.attempts) << 44));
      if (t.park_age != 0) h = mix(h, t.park_age);
      if (t.key_age != 0) h = mix(h, 0x10000u | t.key_age);
    }
    signature[e] = h;
  }
  // Holders add to their event's signature in any order (a sum).
  std::array<std::uint64_t, kMaxEvents> held;
  for (int e = 0; e < events; ++e) held[e] = 0;
  for (const RelayCells& r : s.relays) {
    if (r.event == 0) continue;
    const bool current = r.token == s.events[r.event - 1].token;
    held[r.event - 1] +=
        mix(1, static_cast<std::uint64_t>(r.phase) |
                   (static_cast<std::uint64_t>(r.token) << 2) |
                   (current ? 1u << 10 : 0) |
                   (static_cast<std::uint64_t>(r.clock) << 11));
  }
  for (int g = 0; g < groups; ++g) {
    for (int i = group_first_[g]; i < group_first_[g + 1]; ++i) {
      const InstanceCells& c = s.instances[i];
      if (c.event == 0) continue;
      held[c.event - 1] += mix(2 + static_cast<std::uint64_t>(g),
                               static_cast<std::uint64_t>(c.phase) |
                                   (static_cast<std::uint64_t>(c.memo) << 2) |
                                   (static_cast<std::uint64_t>(c.stage) << 40));
    }
  }
  for (int e = 0; e < events; ++e) {
    if (in_class_[static_cast<std::size_t>(e)]) {
      signature[e] = mix(signature[e], held[e]);
    }
  }

  for (const std::vector<int>& members : event_classes_) {
    // Members in order of signature take the class's positions in order.
    const std::size_t n = members.size();
    std::array<int, kMaxEvents> order;
    std::copy(members.begin(), members.end(), order.begin());
    // Insertion sort: a few elements, stable, no allocation.
    for (std::size_t i = 1; i < n; ++i) {
      const int e = order[i];
      std::size_t j = i;
      for (; j > 0 && signature[order[j - 1]] > signature[e]; --j) {
        order[j] = order[j - 1];
      }
      order[j] = e;
    }
    // Runs of tied signatures, [first, end): every order of each run.
    std::array<std::pair<std::uint8_t, std::uint8_t>, kMaxEvents> runs;
    std::size_t run_count = 0;
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i + 1;
      while (j < n && signature[order[j]] == signature[order[i]]) ++j;
      if (j - i > 1) {
        runs[run_count++] = {static_cast<std::uint8_t>(i),
                             static_cast<std::uint8_t>(j)};
        std::sort(order.begin() + static_cast<std::ptrdiff_t>(i),
                  order.begin() + static_cast<std::ptrdiff_t>(j));
      }
      i = j;
    }
    const std::size_t bases = out->size();
    for (std::size_t b = 0; b < bases; ++b) {
      std::array<int, kMaxEvents> arrangement = order;
      bool first = true;
      for (;;) {
        Permutation p = (*out)[b];
        for (std::size_t k = 0; k < n; ++k) {
          p[static_cast<std::size_t>(arrangement[k])] =
              static_cast<std::uint8_t>(members[k]);
        }
        if (first) {
          (*out)[b] = p;  // the base's first extension replaces it
          first = false;
        } else {
          out->push_back(p);
        }
        // The next arrangement: an odometer over the runs' permutations
        // (a run that wraps around is back in order and carries).
        std::size_t r = 0;
        for (; r < run_count; ++r) {
          if (std::next_permutation(arrangement.begin() + runs[r].first,
                                    arrangement.begin() + runs[r].second)) {
            break;
          }
        }
        if (r == run_count) break;
      }
    }
  }
}

Renaming Symmetry::Arrange(const State& s, const Permutation& to,
                           std::vector<int>* relay_ties,
                           std::vector<int>* instance_ties) const {
  Renaming m;
  const int events = events_;
  const int groups = static_cast<int>(group_first_.size()) - 1;
  for (int e = 0; e < events; ++e) {
    m.event_to[e] = to[e];
    m.event_from[to[e]] = static_cast<std::uint8_t>(e);
  }
  auto event_ref = [&](std::uint8_t ref) -> std::uint64_t {
    return ref == 0 ? 0 : to[ref - 1] + 1u;
  };
  // Relays, by their cells and then by the (renamed) events they own.
  std::array<std::uint64_t, kMaxRelays> owned{};
  for (int e = 0; e < events; ++e) {
    const std::uint8_t owner = s.events[e].owner;
    if (owner != 0) owned[owner - 1] |= 1u << to[e];
  }
  std::array<std::uint64_t, kMaxRelays> keys;
  for (int r = 0; r < relays_; ++r) {
    const RelayCells& c = s.relays[r];
    // The age sweeper's send clock (< 2^14: at most kMaxTimeUnits) tops the
    // key, which then still leaves kIndexBits for the index.
    const std::uint64_t key =
        (static_cast<std::uint64_t>(c.clock) << 43) |
        (static_cast<std::uint64_t>(c.retrying) << 42) |
        (static_cast<std::uint64_t>(c.phase) << 40) |
        (event_ref(c.event) << 32) | (event_ref(c.retry) << 24) |
        (static_cast<std::uint64_t>(c.token) << 16) | owned[r];
    keys[r] = (key << kIndexBits) | static_cast<std::uint64_t>(r);
  }
  std::sort(keys.begin(), keys.begin() + relays_);
  for (int pos = 0; pos < relays_; ++pos) {
    const auto r =
        static_cast<std::uint8_t>(keys[pos] & ((1u << kIndexBits) - 1));
    m.relay_from[pos] = r;
    m.relay_to[r] = static_cast<std::uint8_t>(pos);
    keys[pos] >>= kIndexBits;
  }
  if (relay_ties) Runs(keys.data(), relays_, relay_ties);
  // Each group's instances, by their cells.
  std::array<std::uint64_t, kMaxInstances> ikeys;
  for (int g = 0; g < groups; ++g) {
    const int first = group_first_[g];
    const int k = group_first_[g + 1] - first;
    if (k < 2) {
      if (k == 1) {
        m.instance_from[first] = m.instance_to[first] =
            static_cast<std::uint8_t>(first);
      }
      continue;
    }
    for (int i = 0; i < k; ++i) {
      const InstanceCells& c = s.instances[first + i];
      std::uint64_t key = (static_cast<std::uint64_t>(c.phase) << 40) |
                          (static_cast<std::uint64_t>(c.stage) << 37) |
                          (event_ref(c.event) << 32) | c.memo;
      if (partitions_ > 0) {
        // The record it holds (partition + 1 < 8, offset < 16, epoch < 16)
        // and the partitions it owns (a mask of 4): key < 2^58.
        const int group = instance_group_[static_cast<std::size_t>(first + i)];
        const int local =
            first + i - group_base_[static_cast<std::size_t>(group)];
        std::uint64_t owns = 0;
        for (int p = 0; p < partitions_; ++p) {
          if (s.partitions[static_cast<std::size_t>(group * partitions_ + p)]
                  .owner == local) {
            owns |= 1u << p;
          }
        }
        key |= (static_cast<std::uint64_t>(c.fetched) << 42) |
               (static_cast<std::uint64_t>(c.epoch) << 43) |
               (static_cast<std::uint64_t>(c.offset) << 47) |
               (static_cast<std::uint64_t>(c.partition) << 51) | (owns << 54);
      }
      ikeys[i] = (key << kIndexBits) | static_cast<std::uint64_t>(i);
    }
    // GCC 12 with -fsanitize=address warns that std::sort's branch for more
    // than 16 elements reads past `ikeys` (-Warray-bounds): a false positive,
    // since k <= kMaxInstances (8) and that branch never runs. Silenced here
    // only, so the sanitizer build keeps -Werror.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
    std::sort(ikeys.begin(), ikeys.begin() + k);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
    for (int pos = 0; pos < k; ++pos) {
      const int i = static_cast<int>(ikeys[pos] & ((1u << kIndexBits) - 1));
      m.instance_from[first + pos] = static_cast<std::uint8_t>(first + i);
      m.instance_to[first + i] = static_cast<std::uint8_t>(first + pos);
      ikeys[pos] >>= kIndexBits;
    }
    if (instance_ties) Runs(ikeys.data(), k, instance_ties);
  }
  return m;
}

void Symmetry::Canonicalize(const State& s, const StateCodec& codec,
                            std::uint8_t* out, Scratch& scratch,
                            Renaming* used) const {
  const std::size_t n = codec.size();
  std::vector<Permutation>& perms = scratch.perms;
  Candidates(s, &perms);
  Renaming first = Arrange(s, perms[0], nullptr, nullptr);
  codec.EncodeRenamed(s, first, out);
  if (used) *used = first;
  std::array<std::uint8_t, kMaxEncoded> candidate;
  for (std::size_t p = 1; p < perms.size(); ++p) {
    const Renaming r = Arrange(s, perms[p], nullptr, nullptr);
    codec.EncodeRenamed(s, r, candidate.data());
    if (std::memcmp(candidate.data(), out, n) < 0) {
      std::memcpy(out, candidate.data(), n);
      if (used) *used = r;
    }
  }
}

std::uint64_t Symmetry::OrbitSize(const State& s, const StateCodec& codec,
                                  Scratch& scratch) const {
  const std::size_t n = codec.size();
  std::array<std::uint8_t, kMaxEncoded> best, candidate;
  // This runs once per stored state: the buffers are the caller's, reused.
  std::vector<int>& relay_ties = scratch.relay_ties;
  std::vector<int>& instance_ties = scratch.instance_ties;
  std::vector<int>& best_relay_ties = scratch.best_relay_ties;
  std::vector<int>& best_instance_ties = scratch.best_instance_ties;
  std::vector<int>& runs = scratch.runs;
  std::uint64_t at_best = 0;  // event permutations that reach the least
  std::vector<Permutation>& perms = scratch.perms;
  Candidates(s, &perms);
  for (std::size_t p = 0; p < perms.size(); ++p) {
    relay_ties.clear();
    instance_ties.clear();
    codec.EncodeRenamed(s, Arrange(s, perms[p], &relay_ties, &instance_ties),
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
  // |G| / |stabilizer|, taken factor by factor: the event part (any
  // renaming onto the least member orders events by signature, so the
  // candidates reaching it are all the event parts of such renamings),
  // then the arrangements of relays and of each group's instances.
  std::uint64_t orbit = event_group_order_ / at_best;
  orbit = SaturatingProduct(orbit, Multinomial(best_relay_ties));
  std::size_t at = 0;
  for (std::size_t g = 0; g + 1 < group_first_.size(); ++g) {
    const int k = group_first_[g + 1] - group_first_[g];
    if (k < 2) continue;
    runs.clear();
    for (int sum = 0; sum < k; sum += best_instance_ties[at++]) {
      runs.push_back(best_instance_ties[at]);
    }
    orbit = SaturatingProduct(orbit, Multinomial(runs));
  }
  return orbit;
}

}  // namespace oc
