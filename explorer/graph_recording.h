// The graph a breadth-first search records of the states it stores
// (ExploreRecording, breadth_first_search.h): one vertex per stored state,
// numbered as stored, and one edge per transition, in the order a serial
// search meets them (state by state, each state's successors in the
// model's order), each labelled by a keying (as BuildKeyedGraph's, in
// state_graph.h). It is the graph BuildKeyedGraph would build afterwards.
//
// The search fills it a batch at a time. While a batch expands, each of
// its chunks keeps its candidates' actions and labels and its states'
// flags (ChunkRecord, written by the chunk's thread). Once the batch is
// numbered, Add writes the chunks' edges in place, on every thread, and
// numbers the labels and places the states on the calling thread, in
// order. The edge arrays reserve room for as many edges as the recording
// may hold, as address space only (page_allocator.h): they do not move as
// they grow, and their pages are first touched by the threads that fill
// them.
//
// Not thread-safe, apart from Key and the ChunkRecords, which the search's
// threads use one chunk and one worker each.

#ifndef OUTBOX_CHECK_EXPLORER_GRAPH_RECORDING_H_
#define OUTBOX_CHECK_EXPLORER_GRAPH_RECORDING_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <utility>
#include <vector>

#include "explorer/page_allocator.h"
#include "explorer/state_graph.h"
#include "explorer/worker_pool.h"

namespace oc::explorer::detail {

template <class M, class Keying>
class GraphRecording {
 public:
  using State = typename M::State;
  using Action = typename M::Action;
  using Label = typename Keying::Label;
  using Vertex = typename StateGraph<M>::Vertex;

  // What one chunk of the batch being expanded recorded, in the chunk's
  // order. Chunks sit side by side and are written by different threads:
  // each on its own cache lines.
  struct alignas(64) ChunkRecord {
    std::vector<Action> actions;      // per candidate
    std::vector<Label> labels;        // per candidate
    std::vector<std::uint8_t> flags;  // per expanded state: see AddState
    std::size_t Bytes() const {
      return actions.capacity() * sizeof(Action) +
             labels.capacity() * sizeof(Label) + flags.capacity();
    }
    void Clear() {
      actions.clear();
      labels.clear();
      flags.clear();
    }
    // An expanded state: whether it has successors, or else whether the
    // model's bound blocked it.
    void AddState(bool has_successors, bool bounded) {
      flags.push_back(has_successors ? 0
                      : bounded      ? StateGraph<M>::kBounded
                                     : StateGraph<M>::kTerminal);
    }
  };

  // What Add needs of one chunk of a numbered batch: the ids of its
  // states, [first, last), and per candidate in order, the id of the
  // state it is a successor of and of the state it is.
  struct ChunkEdges {
    std::size_t first = 0, last = 0;
    std::span<const std::uint32_t> parents, targets;
  };

  // Room is reserved for as many edges as `max_bytes` holds; `threads`
  // workers call Key.
  GraphRecording(Keying& keying, int threads, std::uint64_t max_bytes)
      : keying_(keying), scratch_(static_cast<std::size_t>(threads)) {
    const std::uint64_t edges = max_bytes / kEdgeBytes;
    try {
      targets_.reserve(edges);
      actions_.reserve(edges);
      labels_.reserve(edges);
      AdviseHugePages(targets_);
      AdviseHugePages(actions_);
      AdviseHugePages(labels_);
    } catch (const std::bad_alloc&) {
      // No room reserved: the arrays grow as vectors do.
    }
  }

  // The key of `to`, successor of `from` by `a`, and its label, on the
  // search's worker `worker`.
  Label Key(const State& from, const Action& a, const State& to,
            std::uint8_t* out, int worker) const {
    return keying_.Key(from, a, to, out,
                       scratch_[static_cast<std::size_t>(worker)]);
  }

  // The records of a batch of `n` chunks, and of its chunk c.
  void PrepareChunks(std::size_t n) {
    if (chunks_.size() < n) chunks_.resize(n);
  }
  ChunkRecord& chunk(std::size_t c) { return chunks_[c]; }
  // Frees every chunk's buffers (after a batch that did not fit).
  void ReleaseChunks() {
    for (ChunkRecord& r : chunks_) r = ChunkRecord();
  }

  // What the graph recorded so far holds.
  std::size_t Bytes() const {
    return flags_.size() + edge_begin_.size() * sizeof(std::uint64_t) +
           targets_.size() * kEdgeBytes;
  }
  // What Bytes() would be after adding `states` and `edges`, with the
  // old copy of each array that grows past the room it has.
  std::size_t BytesAfterAdding(std::size_t states, std::size_t edges) const {
    std::size_t moving = 0;
    auto grows = [&](const auto& v, std::size_t more) {
      if (v.size() + more > v.capacity()) {
        moving += v.capacity() * sizeof(v[0]);
      }
    };
    grows(flags_, states);
    grows(edge_begin_, states);
    grows(targets_, edges);
    grows(actions_, edges);
    grows(labels_, edges);
    return Bytes() + states * (1 + sizeof(std::uint64_t)) + edges * kEdgeBytes +
           moving;
  }
  std::size_t states() const { return flags_.size(); }

  // Adds a numbered batch of chunks 0 .. edges.size() - 1: their edges
  // are copied on `pool`'s threads, and the labels' numbers (the keying's
  // Intern) and the states are added on this one.
  void Add(std::span<const ChunkEdges> edges, WorkerPool& pool) {
    std::vector<std::size_t> first_edge(edges.size() + 1, targets_.size());
    for (std::size_t c = 0; c < edges.size(); ++c) {
      first_edge[c + 1] = first_edge[c] + edges[c].targets.size();
    }
    const std::size_t total = first_edge.back();
    targets_.resize(total);
    actions_.resize(total);
    labels_.resize(total);
    pool.ForEach(edges.size(), [&](int, std::size_t c) {
      const auto at = static_cast<std::ptrdiff_t>(first_edge[c]);
      std::copy(edges[c].targets.begin(), edges[c].targets.end(),
                targets_.begin() + at);
      std::copy(chunks_[c].actions.begin(), chunks_[c].actions.end(),
                actions_.begin() + at);
    });
    for (std::size_t c = 0; c < edges.size(); ++c) {
      const ChunkEdges& in = edges[c];
      const ChunkRecord& r = chunks_[c];
      std::size_t k = 0;
      for (std::size_t i = in.first; i < in.last; ++i) {
        edge_begin_.push_back(first_edge[c] + k);
        flags_.push_back(r.flags[i - in.first]);
        for (; k < in.parents.size() && in.parents[k] == i; ++k) {
          labels_[first_edge[c] + k] = keying_.Intern(r.labels[k]);
        }
      }
    }
  }

  // The graph, whose vertices' keys are `encodings` (`width` bytes each).
  // REQUIRES: every stored state was added.
  StateGraph<M> Take(std::size_t width, PageVector<std::uint8_t> encodings) {
    edge_begin_.push_back(targets_.size());
    return StateGraph<M>::FromParts(
        width, std::move(encodings), std::move(flags_), std::move(edge_begin_),
        std::move(targets_), std::move(actions_), std::move(labels_));
  }

 private:
  static constexpr std::size_t kEdgeBytes =
      sizeof(Vertex) + sizeof(Action) + sizeof(std::uint32_t);

  Keying& keying_;
  mutable std::vector<typename Keying::Scratch> scratch_;  // per worker
  std::vector<ChunkRecord> chunks_;
  PageVector<std::uint8_t> flags_;
  PageVector<std::uint64_t> edge_begin_;
  PageVector<Vertex> targets_;
  PageVector<Action> actions_;
  PageVector<std::uint32_t> labels_;
};

}  // namespace oc::explorer::detail

#endif  // OUTBOX_CHECK_EXPLORER_GRAPH_RECORDING_H_
