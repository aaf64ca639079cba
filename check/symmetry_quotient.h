// The symmetry quotient of an outbox model's state graph, for the leads-to
// check (docs/SEMANTICS.md section 15): the renamings of relays, instances
// and events as the group explorer/quotient_fairness.h acts with, and the
// keying with which the search records the quotient as it goes
// (explorer::ExploreRecording), or explorer::BuildKeyedGraph builds it
// after: a vertex per orbit, each edge labelled with the renaming that
// takes the orbit's representative to the edge's real target, and with the
// counts it adds to and takes from at the cap.

#ifndef OUTBOX_CHECK_CHECK_SYMMETRY_QUOTIENT_H_
#define OUTBOX_CHECK_CHECK_SYMMETRY_QUOTIENT_H_

#include <boost/unordered/unordered_flat_map.hpp>
#include <cstdint>
#include <deque>
#include <string>
#include <tuple>
#include <vector>

#include "model/outbox_model.h"

namespace oc {

// The renamings met so far, each named by a number (0 is the identity).
// Not thread-safe: one thread asks it at a time.
class RenamingGroup {
 public:
  explicit RenamingGroup(const OutboxModel& model);

  std::uint32_t Identity() const { return 0; }
  // The number of `r`, new or not. Only the entries for the model's
  // relays, events and instances are read. `fingerprint` is
  // Fingerprint(r), which any thread may compute beforehand.
  std::uint32_t Intern(const Renaming& r, std::uint64_t fingerprint);
  std::uint32_t Intern(const Renaming& r) { return Intern(r, Fingerprint(r)); }
  std::uint64_t Fingerprint(const Renaming& r) const;
  // a after b: first b, then a.
  std::uint32_t Compose(std::uint32_t a, std::uint32_t b);
  std::uint32_t Inverse(std::uint32_t a);
  // A fairness class (OutboxModel::FairnessClass) renamed by a.
  std::uint64_t ActOnClass(std::uint32_t a, std::uint64_t fair_class) const;
  // A mask of CountFlows' counts renamed by a.
  std::uint64_t ActOnPairs(std::uint32_t a, std::uint64_t mask) const;

  // Whether a and b rename the model's relays, events and instances alike.
  bool Same(const Renaming& a, const Renaming& b) const;

 private:
  // The used entries of `to` maps, relays then events then instances.
  std::string KeyOf(const Renaming& r) const;

  const OutboxModel& model_;
  int relays_ = 0, events_ = 0, instances_ = 0;
  std::vector<Renaming> elements_;
  // By fingerprint; renamings whose fingerprint another one has by chance
  // are looked up by their key.
  boost::unordered_flat_map<std::uint64_t, std::uint32_t> by_fingerprint_;
  boost::unordered_flat_map<std::string, std::uint32_t> clashing_;
  // Compositions of the first kDense elements in a table, the others in a
  // map.
  static constexpr std::uint32_t kDense = 64;
  std::vector<std::uint32_t> dense_;
  boost::unordered_flat_map<std::uint64_t, std::uint32_t> composed_;
  std::vector<std::uint32_t> inverse_;  // kUnknown until asked
};

// What an edge of the quotient carries: sigma, a renaming with rep(source)
// --action--> sigma(rep(target)), and the counts the real edge requests
// and responds to (OutboxModel::CountFlows: stays and adds).
struct QuotientEdge {
  std::uint32_t sigma = 0;
  std::uint64_t stays = 0, adds = 0;
};

// The keying for explorer::ExploreRecording and BuildKeyedGraph. Labels
// number the distinct QuotientEdge values, in `edges`.
class QuotientKeying {
 public:
  // A thread's buffers, and the renamings it has met, each kept once (by
  // value) at a stable address for the labels to point to.
  struct Scratch {
    OutboxModel::SymmetryScratch symmetry;
    std::deque<Renaming> renamings;
    boost::unordered_flat_map<std::uint64_t, const Renaming*> by_fingerprint;
  };
  struct Label {
    // Takes the real target to its representative; in a Scratch.
    const Renaming* to_canonical = nullptr;
    std::uint64_t stays = 0, adds = 0;
  };

  // `counts`: label the edges with their count flows (an abstraction
  // that saturates counts over-approximately).
  QuotientKeying(const OutboxModel& model, RenamingGroup& group, bool counts)
      : model_(model), group_(group), counts_(counts) {}

  void KeyInitial(const State& s, std::uint8_t* out, Scratch& scratch) const;
  Label Key(const State& from, const Action& a, const State& to,
            std::uint8_t* out, Scratch& scratch) const;
  std::uint32_t Intern(const Label& label);

  const std::vector<QuotientEdge>& edges() const { return edges_; }

 private:
  const OutboxModel& model_;
  RenamingGroup& group_;
  bool counts_;
  std::vector<QuotientEdge> edges_;
  boost::unordered_flat_map<
      std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>, std::uint32_t>
      ids_;
  std::vector<std::uint32_t> plain_;  // by sigma, for edges moving no count
  // sigma of each renaming a label pointed to.
  boost::unordered_flat_map<const Renaming*, std::uint32_t> sigma_of_;
};

}  // namespace oc

#endif  // OUTBOX_CHECK_CHECK_SYMMETRY_QUOTIENT_H_
