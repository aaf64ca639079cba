#include "check/symmetry_quotient.h"

#include <cstring>
#include <limits>

namespace oc {
namespace {

constexpr std::uint32_t kUnknown = std::numeric_limits<std::uint32_t>::max();

}  // namespace

RenamingGroup::RenamingGroup(const OutboxModel& model) : model_(model) {
  const Config& config = model.config();
  relays_ = static_cast<int>(config.relays.size());
  events_ = static_cast<int>(config.events.size());
  for (const Group& g : config.groups) instances_ += g.instances;
  Intern(Renaming::Identity());
}

std::string RenamingGroup::KeyOf(const Renaming& r) const {
  std::string key;
  key.reserve(static_cast<std::size_t>(relays_ + events_ + instances_));
  key.append(reinterpret_cast<const char*>(r.relay_to.data()),
             static_cast<std::size_t>(relays_));
  key.append(reinterpret_cast<const char*>(r.event_to.data()),
             static_cast<std::size_t>(events_));
  key.append(reinterpret_cast<const char*>(r.instance_to.data()),
             static_cast<std::size_t>(instances_));
  return key;
}

std::uint64_t RenamingGroup::Fingerprint(const Renaming& r) const {
  std::uint64_t h = 0x9e3779b97f4a7c15u;
  auto mix = [&](const std::uint8_t* p, int n) {
    for (int i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3u;
  };
  mix(r.relay_to.data(), relays_);
  mix(r.event_to.data(), events_);
  mix(r.instance_to.data(), instances_);
  return h ^ (h >> 29);
}

bool RenamingGroup::Same(const Renaming& a, const Renaming& b) const {
  return std::memcmp(a.relay_to.data(), b.relay_to.data(),
                     static_cast<std::size_t>(relays_)) == 0 &&
         std::memcmp(a.event_to.data(), b.event_to.data(),
                     static_cast<std::size_t>(events_)) == 0 &&
         std::memcmp(a.instance_to.data(), b.instance_to.data(),
                     static_cast<std::size_t>(instances_)) == 0;
}

std::uint32_t RenamingGroup::Intern(const Renaming& r,
                                    std::uint64_t fingerprint) {
  const auto next = static_cast<std::uint32_t>(elements_.size());
  const auto [seen, first] = by_fingerprint_.try_emplace(fingerprint, next);
  if (!first && Same(elements_[seen->second], r)) return seen->second;
  bool fresh = first;
  std::uint32_t id = next;
  if (!first) {
    const auto [at, added] = clashing_.try_emplace(KeyOf(r), next);
    fresh = added;
    id = at->second;
  }
  if (fresh) {
    // Kept with every unused entry fixed, so that compositions are too.
    Renaming kept = Renaming::Identity();
    for (int i = 0; i < relays_; ++i) {
      kept.relay_to[i] = r.relay_to[i];
      kept.relay_from[r.relay_to[i]] = static_cast<std::uint8_t>(i);
    }
    for (int i = 0; i < events_; ++i) {
      kept.event_to[i] = r.event_to[i];
      kept.event_from[r.event_to[i]] = static_cast<std::uint8_t>(i);
    }
    for (int i = 0; i < instances_; ++i) {
      kept.instance_to[i] = r.instance_to[i];
      kept.instance_from[r.instance_to[i]] = static_cast<std::uint8_t>(i);
    }
    elements_.push_back(kept);
    inverse_.push_back(kUnknown);
  }
  return id;
}

std::uint32_t RenamingGroup::Compose(std::uint32_t a, std::uint32_t b) {
  if (a == 0) return b;
  if (b == 0) return a;
  const bool dense = a < kDense && b < kDense;
  const std::uint64_t pair = std::uint64_t{a} << 32 | b;
  if (dense) {
    if (dense_.empty()) dense_.assign(kDense * kDense, kUnknown);
    if (dense_[a * kDense + b] != kUnknown) return dense_[a * kDense + b];
  } else if (const auto it = composed_.find(pair); it != composed_.end()) {
    return it->second;
  }
  const Renaming& x = elements_[a];
  const Renaming& y = elements_[b];
  Renaming r = Renaming::Identity();
  for (int i = 0; i < relays_; ++i) r.relay_to[i] = x.relay_to[y.relay_to[i]];
  for (int i = 0; i < events_; ++i) r.event_to[i] = x.event_to[y.event_to[i]];
  for (int i = 0; i < instances_; ++i) {
    r.instance_to[i] = x.instance_to[y.instance_to[i]];
  }
  const std::uint32_t id = Intern(r);
  if (dense) {
    dense_[a * kDense + b] = id;
  } else {
    composed_.emplace(pair, id);
  }
  return id;
}

std::uint32_t RenamingGroup::Inverse(std::uint32_t a) {
  if (inverse_[a] != kUnknown) return inverse_[a];
  const Renaming& x = elements_[a];
  Renaming r = Renaming::Identity();
  for (int i = 0; i < relays_; ++i) r.relay_to[i] = x.relay_from[i];
  for (int i = 0; i < events_; ++i) r.event_to[i] = x.event_from[i];
  for (int i = 0; i < instances_; ++i) r.instance_to[i] = x.instance_from[i];
  const std::uint32_t id = Intern(r);
  inverse_[a] = id;
  inverse_[id] = a;
  return id;
}

std::uint64_t RenamingGroup::ActOnClass(std::uint32_t a,
                                        std::uint64_t fair_class) const {
  if (a == 0) return fair_class;
  return OutboxModel::FairnessClass(model_.RenameAction(
      OutboxModel::ActionOfFairnessClass(fair_class), elements_[a]));
}

std::uint64_t RenamingGroup::ActOnPairs(std::uint32_t a,
                                        std::uint64_t mask) const {
  if (a == 0 || mask == 0) return mask;
  return model_.RenameFlowPairs(mask, elements_[a]);
}

void QuotientKeying::KeyInitial(const State& s, std::uint8_t* out,
                                Scratch& scratch) const {
  model_.CanonicalRenaming(s, out, scratch.symmetry);
}

QuotientKeying::Label QuotientKeying::Key(const State& from, const Action& a,
                                          const State& to, std::uint8_t* out,
                                          Scratch& scratch) const {
  Label label;
  const Renaming r = model_.CanonicalRenaming(to, out, scratch.symmetry);
  const std::uint64_t fingerprint = group_.Fingerprint(r);
  const auto [at, fresh] = scratch.by_fingerprint.try_emplace(fingerprint);
  if (!fresh && group_.Same(*at->second, r)) {
    label.to_canonical = at->second;
  } else {
    // New to this thread (or sharing a fingerprint by chance: then kept
    // again, unmapped).
    scratch.renamings.push_back(r);
    label.to_canonical = &scratch.renamings.back();
    if (fresh) at->second = label.to_canonical;
  }
  if (counts_) model_.CountFlows(from, a, to, label.stays, label.adds);
  return label;
}

std::uint32_t QuotientKeying::Intern(const Label& label) {
  // sigma is the inverse of the renaming onto the representative.
  QuotientEdge edge;
  const auto [met, first] = sigma_of_.try_emplace(label.to_canonical, 0);
  if (first) {
    met->second = group_.Inverse(group_.Intern(*label.to_canonical));
  }
  edge.sigma = met->second;
  edge.stays = label.stays;
  edge.adds = label.adds;
  std::uint32_t* known = nullptr;
  if (edge.stays == 0 && edge.adds == 0) {
    // Most edges move no count: numbered by sigma alone.
    if (plain_.size() <= edge.sigma) plain_.resize(edge.sigma + 1, kUnknown);
    known = &plain_[edge.sigma];
    if (*known != kUnknown) return *known;
  }
  const auto [at, fresh] =
      ids_.try_emplace(std::tuple(edge.sigma, edge.stays, edge.adds),
                       static_cast<std::uint32_t>(edges_.size()));
  if (known) *known = at->second;
  if (fresh) edges_.push_back(edge);
  return at->second;
}

}  // namespace oc
