// A hand-built graph for the fair-cycle tests, in compressed sparse row
// form: edge i of the list is edge id i, and each vertex is bad or good.

#ifndef OUTBOX_CHECK_TESTS_EXPLORER_TINY_GRAPH_H_
#define OUTBOX_CHECK_TESTS_EXPLORER_TINY_GRAPH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace oc::testing {

struct TinyEdge {
  std::size_t from;
  std::size_t to;
  std::uint64_t cls;  // fairness class
  bool fault = false;
  // Compassion pairs (explorer/compassion.h): the counts the edge takes
  // from while leaving them at the cap, and those it adds to.
  std::uint64_t req = 0;
  std::uint64_t res = 0;
};

class TinyGraph {
 public:
  // `kinds`: 'B' (bad) or 'G' (good) per vertex. REQUIRES: edges sorted by
  // source.
  TinyGraph(std::string kinds, std::vector<TinyEdge> edges)
      : kinds_(std::move(kinds)),
        edges_(std::move(edges)),
        begin_(kinds_.size() + 1, 0) {
    for (const TinyEdge& e : edges_) ++begin_[e.from + 1];
    for (std::size_t v = 0; v < kinds_.size(); ++v) begin_[v + 1] += begin_[v];
  }
  std::size_t num_vertices() const { return kinds_.size(); }
  std::size_t num_edges() const { return edges_.size(); }
  std::size_t out_begin(std::size_t v) const { return begin_[v]; }
  std::size_t out_end(std::size_t v) const { return begin_[v + 1]; }
  std::size_t target(std::size_t e) const { return edges_[e].to; }

  bool bad(std::size_t v) const { return kinds_[v] == 'B'; }
  const TinyEdge& edge(std::size_t e) const { return edges_[e]; }

 private:
  std::string kinds_;
  std::vector<TinyEdge> edges_;
  std::vector<std::size_t> begin_;
};

}  // namespace oc::testing

#endif  // OUTBOX_CHECK_TESTS_EXPLORER_TINY_GRAPH_H_
