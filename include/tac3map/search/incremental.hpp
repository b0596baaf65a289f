// Incremental evaluation of the three objectives under single moves (a task swaps nodes with
// another task or moves to a free node). The annealer asks an engine to propose a move (value
// and tie-break term after it), then commits or discards it. A move re-routes only the
// communications of the two tasks; every other number is kept in flat integer arrays, so a
// move costs work proportional to the routes it changes. objective.hpp's evaluateExact is the
// reference these must equal after every move (tests/search/incremental_test.cpp checks it).
#pragma once

#include <cstdint>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/search/tac3_step.hpp"

namespace tac3map {

// `task` goes to `node` (position `position` = node * K + slot, K slots per node); `other`,
// the task in that position (-1 if free), goes to `from` (position `fromPosition`).
struct Move {
  int task = -1, node = -1, other = -1, from = -1;
  int position = -1, fromPosition = -1;
};

// Where every task is (node and position node * K + slot), which task is in every position,
// and which communications touch a task (each task's list sorted by CCS, so a move can be
// evaluated one CCS at a time). K = problem.model.ranksPerNode; with K = 1 positions are nodes.
class Placement {
 public:
  Placement(const Problem& problem, int nodes, const Mapping& mapping);

  int slotsPerNode() const { return slots_; }
  int nodeOf(int task) const { return nodeOfTask_[task]; }
  int positionOf(int task) const { return positionOfTask_[task]; }
  int taskAt(int position) const { return taskAtPosition_[position]; }
  int nodeOfPosition(int position) const { return slots_ == 1 ? position : position / slots_; }
  const std::vector<int>& nodeOfTask() const { return nodeOfTask_; }
  // The mapping as it stands (slots only when K > 1).
  Mapping mapping() const;
  Move makeMove(int task, int position) const {
    const int from = positionOf(task);
    return {task,
            nodeOfPosition(position),
            position == from ? -1 : taskAt(position),
            nodeOf(task),
            position,
            from};
  }
  // The node of `task` once `move` is made.
  int nodeAfter(const Move& move, int task) const {
    return task == move.task ? move.node : task == move.other ? move.from : nodeOfTask_[task];
  }

  // Communications of one task: incident[begin .. end), ascending CCS.
  const int* incidentBegin(int task) const { return incident_.data() + start_[task]; }
  const int* incidentEnd(int task) const { return incident_.data() + start_[task + 1]; }
  // The most communications one task has (what a move's buffers are sized for).
  std::size_t mostIncident() const;

  // Calls f(comm) once for every communication of the move's two tasks.
  template <class F>
  void forEachAffected(const Move& move, F&& f) const {
    for (const int* c = incidentBegin(move.task); c != incidentEnd(move.task); ++c) f(*c);
    if (move.other < 0) return;
    for (const int* c = incidentBegin(move.other); c != incidentEnd(move.other); ++c)
      if (!touches(*c, move.task)) f(*c);  // task<->other communications were visited above
  }

  // Calls f(t, first, last) for each CCS t touched by the move, ascending, with the move's
  // communications of t in [first, last); stops early when f returns false. `scratch` holds
  // the lists (kept by the caller so that no move allocates).
  template <class F>
  void forEachAffectedCcs(const Move& move, const int* ccsOf, std::vector<int>& scratch,
                          F&& f) const;

  bool touches(int comm, int task) const { return src_[comm] == task || dst_[comm] == task; }

  void apply(const Move& move) {
    if (move.position == move.fromPosition) return;
    nodeOfTask_[move.task] = move.node;
    positionOfTask_[move.task] = move.position;
    taskAtPosition_[move.position] = move.task;
    taskAtPosition_[move.fromPosition] = move.other;
    if (move.other >= 0) {
      nodeOfTask_[move.other] = move.from;
      positionOfTask_[move.other] = move.fromPosition;
    }
  }

 private:
  const int* src_;
  const int* dst_;
  int slots_;
  // nodeOfTask_ is positionOfTask_ / K, kept apart because the engines read a task's node for
  // every message of a move (no division on the hot path).
  std::vector<int> nodeOfTask_, positionOfTask_, taskAtPosition_;
  std::vector<int> start_, incident_;  // CSR: communications of each task
};

template <class F>
void Placement::forEachAffectedCcs(const Move& move, const int* ccsOf, std::vector<int>& scratch,
                                   F&& f) const {
  const int *a = incidentBegin(move.task), *aEnd = incidentEnd(move.task);
  const int *b = nullptr, *bEnd = nullptr;
  if (move.other >= 0) b = incidentBegin(move.other), bEnd = incidentEnd(move.other);
  while (a != aEnd || b != bEnd) {
    int t = a != aEnd ? ccsOf[*a] : ccsOf[*b];
    if (b != bEnd && ccsOf[*b] < t) t = ccsOf[*b];
    scratch.clear();
    for (; a != aEnd && ccsOf[*a] == t; ++a) scratch.push_back(*a);
    for (; b != bEnd && ccsOf[*b] == t; ++b)
      if (!touches(*b, move.task)) scratch.push_back(*b);
    if (!f(t, scratch.data(), scratch.data() + scratch.size())) return;
  }
}

// What every engine shares: the problem, the routes and the placement. Engines provide
//   value(), secondary()                      the exact objective and its tie-break term;
//   propose(task, node, limit) -> bool        evaluate a move; false = rejected early, because
//                                             the value would rise by at least limit() (a
//                                             functor, called only when needed: the annealer
//                                             draws its random acceptance threshold lazily);
//   proposedValue(), proposedSecondary()      the numbers after the proposed move;
//   commit(), discard()                       make the proposed move, or forget it.
template <class Engine>
class IncrementalObjective {
 public:
  IncrementalObjective(const Problem& problem, const Network& router, const Mapping& mapping)
      : problem_(problem), router_(router), placement_(problem, router.nodeCount(), mapping) {}

  const Placement& placement() const { return placement_; }

 protected:
  struct Ends {
    int p, q;
  };
  Ends endsNow(int c) const {
    return {placement_.nodeOf(problem_.src[c]), placement_.nodeOf(problem_.dst[c])};
  }
  Ends endsAfter(int c) const {
    return {placement_.nodeAfter(move_, problem_.src[c]),
            placement_.nodeAfter(move_, problem_.dst[c])};
  }

  const Problem& problem_;
  const Network& router_;
  Placement placement_;
  Move move_;  // the proposed move
};

// What both tac3 engines keep besides their link loads: each CCS's cost and bound (its largest
// message) for one occurrence, their sums weighted by the CCS's repeats (problem.hpp), the sharing
// pairs (the tie-break term), the proposed move's changes to value and pairs, and the
// early-rejection test. An engine evaluates the move's CCSs one at a time: it starts from
// initialSlack(), calls enter() as it takes up CCS t, may ask certainlyTooHigh() with a lower bound
// of t's new cost, and records the cost with settle().
class Tac3Totals {
 public:
  using Value = std::uint64_t;

  Value value() const { return total_; }
  std::uint64_t secondary() const { return sharedPairs_; }
  Value proposedValue() const { return total_ + static_cast<Value>(delta_); }
  std::uint64_t proposedSecondary() const {
    return sharedPairs_ + static_cast<std::uint64_t>(pairsDelta_);
  }

 protected:
  // Bounds from the problem; costs start at 0 until the engine sets them and calls sumCosts().
  explicit Tac3Totals(const Problem& problem);
  void sumCosts();

  void beginProposal() {
    delta_ = 0;
    pairsDelta_ = 0;
    for (int t : settled_) proposed_[t] = cost_[t];
    settled_.clear();
  }
  // The most the CCSs not yet evaluated could still lower the value by: each to its bound.
  std::int64_t initialSlack() const { return static_cast<std::int64_t>(total_ - boundTotal_); }
  void enter(int t, std::int64_t& slack) const {
    slack -= static_cast<std::int64_t>(repeats_[t] * (cost_[t] - bound_[t]));
  }
  // Whether a new cost of CCS t of at least `cost` makes the value rise by at least limit()
  // whatever the CCSs not yet evaluated do. limit() is called only when the rise is positive.
  template <class Limit>
  bool certainlyTooHigh(int t, std::uint64_t cost, std::int64_t slack, Limit&& limit) const {
    // With phase overlap a union's term can fall when its CCSs' costs rise: no early verdict.
    if (overlap_) return false;
    const std::int64_t atLeast =
        delta_ + static_cast<std::int64_t>(repeats_[t] * (cost - cost_[t])) - slack;
    return atLeast > 0 && static_cast<double>(atLeast) >= limit();
  }
  // CCSs are settled in ascending order, so a union (its index is above both of its CCSs')
  // sees their new costs.
  void settle(int t, std::uint64_t newCost) {
    delta_ += static_cast<std::int64_t>(repeats_[t] * (newCost - cost_[t]));
    if (!overlap_) return;
    proposed_[t] = newCost;
    settled_.push_back(t);
    const int a = first_[t];
    if (a >= 0)
      delta_ -= static_cast<std::int64_t>(std::max(proposed_[a], proposed_[a + 1])) -
                static_cast<std::int64_t>(std::max(cost_[a], cost_[a + 1]));
  }
  // The change of CCS t's sharing pairs in one occurrence.
  void addPairs(int t, std::int64_t pairs) {
    pairsDelta_ += static_cast<std::int64_t>(repeats_[t]) * pairs;
  }
  void commitTotals() {
    total_ += static_cast<std::uint64_t>(delta_);
    sharedPairs_ += static_cast<std::uint64_t>(pairsDelta_);
  }

  std::vector<std::uint64_t> cost_, bound_;  // per CCS, one occurrence
  std::vector<std::uint64_t> repeats_;       // per CCS (problem.hpp)
  std::uint64_t total_ = 0, boundTotal_ = 0;
  // Phase overlap (objective.hpp): per CCS its union's first CCS (-1: not a union), the costs
  // of the proposal so far, and the CCSs it has settled.
  bool overlap_ = false;
  std::vector<int> first_;
  std::vector<std::uint64_t> proposed_;
  std::vector<int> settled_;
  std::uint64_t sharedPairs_ = 0;
  std::int64_t delta_ = 0, pairsDelta_ = 0;  // of the proposed move
};

// tahb: sum of bytes x hops; hops come from the route cache or coordinates, no walk needed.
// The communication graph the tahb engine works on (hopBytesProblem), built before the engine's
// placement: a base class, so that it exists first.
struct HopBytesGraph {
  explicit HopBytesGraph(const Problem& problem) : graph(hopBytesProblem(problem)) {}
  Problem graph;
};

// tahb on the communication graph (hopBytesProblem): the same value and deltas as over every
// message, a move visiting each partner once.
class TahbObjective : private HopBytesGraph, public IncrementalObjective<TahbObjective> {
 public:
  using Value = std::uint64_t;
  TahbObjective(const Problem& problem, const Network& router, const Mapping& mapping);

  Value value() const { return total_; }
  std::uint64_t secondary() const { return 0; }

  template <class Limit>
  bool propose(int task, int node, Limit&&) {
    move_ = placement_.makeMove(task, node);
    delta_ = 0;
    placement_.forEachAffected(move_, [&](int c) {
      if (static_cast<std::size_t>(c) >= problem_.realCommunications) return;  // union copies
      const Ends now = endsNow(c), after = endsAfter(c);
      delta_ += static_cast<std::int64_t>(problem_.volume[c]) *
                (router_.hops(after.p, after.q) - router_.hops(now.p, now.q));
    });
    return true;
  }
  Value proposedValue() const { return total_ + static_cast<Value>(delta_); }
  std::uint64_t proposedSecondary() const { return 0; }
  void commit() {
    total_ += static_cast<Value>(delta_);
    placement_.apply(move_);
  }
  void discard() {}

 private:
  std::uint64_t total_ = 0;
  std::int64_t delta_ = 0;
};

// rmatt-o2f: tahb x the largest total bytes on one link over the iteration. The largest value
// is tracked with the number of links holding it; only when all of them drop is it rescanned.
// Proposals are applied for real and reversed on discard.
class RmattObjective : public IncrementalObjective<RmattObjective> {
 public:
  using Value = unsigned __int128;
  RmattObjective(const Problem& problem, const Network& router, const Mapping& mapping);

  Value value() const { return static_cast<Value>(hopBytes_) * maxBytes_; }
  std::uint64_t secondary() const { return 0; }
  std::uint64_t hopBytes() const { return hopBytes_; }
  std::uint64_t maxLinkBytes() const { return maxBytes_; }

  template <class Limit>
  bool propose(int task, int node, Limit&&) {
    move_ = placement_.makeMove(task, node);
    apply(move_);
    return true;
  }
  Value proposedValue() const { return value(); }
  std::uint64_t proposedSecondary() const { return 0; }
  void commit() {}
  void discard() {
    apply(
        Move{move_.task, move_.from, move_.other, move_.node, move_.fromPosition, move_.position});
  }

 private:
  void apply(const Move& move);
  void removeRoute(int c, Ends e);
  void addRoute(int c, Ends e);

  std::vector<std::uint64_t> linkBytes_;
  std::uint64_t hopBytes_ = 0;
  std::uint64_t maxBytes_ = 0;
  std::int64_t atMax_ = 0;  // links whose bytes equal maxBytes_ (0: maxBytes_ may be stale)
};

inline void RmattObjective::removeRoute(int c, Ends e) {
  if (static_cast<std::size_t>(c) >= problem_.realCommunications) return;  // union copies
  const std::uint64_t bytes = problem_.volume[c];
  int hops = 0;
  router_.forEachLink(e.p, e.q, [&](LinkId l) {
    if (linkBytes_[l] == maxBytes_) --atMax_;
    linkBytes_[l] -= bytes;
    ++hops;
  });
  hopBytes_ -= bytes * static_cast<std::uint64_t>(hops);
}

inline void RmattObjective::addRoute(int c, Ends e) {
  if (static_cast<std::size_t>(c) >= problem_.realCommunications) return;  // union copies
  const std::uint64_t bytes = problem_.volume[c];
  int hops = 0;
  router_.forEachLink(e.p, e.q, [&](LinkId l) {
    const std::uint64_t now = linkBytes_[l] += bytes;
    if (now > maxBytes_) {
      maxBytes_ = now;
      atMax_ = 1;
    } else if (now == maxBytes_) {
      ++atMax_;
    }
    ++hops;
  });
  hopBytes_ += bytes * static_cast<std::uint64_t>(hops);
}

}  // namespace tac3map
