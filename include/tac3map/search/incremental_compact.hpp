// The fast tac3 engine for boxes of the paper's size. It applies when every CCS has one message
// size and at most 255 messages, the box's routes (at most 15 hops with the engine links) fit
// one table, and the model has no phase overlap (fits()). Then a CCS's link loads are one dense
// array and a route is a fixed-size row of dense link ids. A move copies the rows of its
// messages into one list (whole rows, each written over the tail of the one before, so there is
// no branch per route), walks that list once, and keeps it to undo the move on discard. There is
// no histogram: when the largest load may have fallen, a vectorised pass over the CCS's array
// looks for a link still at the old maximum, and usually finds one within the first cache lines.
//
// Two kinds of load array, chosen once per problem:
// - One rank per node (any engines): message counts in bytes, network links only. A node's
//   engine links then carry exactly the messages of the rank on it, wherever it is placed, so
//   the model's node term (model.hpp) is a per-CCS constant: the most messages one rank of the
//   CCS sends or receives, times the node weight. A CCS costs
//     size x max(linkWeight x its largest count, that constant),
//   the general engine's weighted maximum exactly; its sharing pairs are the network's
//   (x linkWeight^2) plus the engine links' constant.
// - Several ranks per node: weighted loads in 16 bits on network, engine and memory links
//   (model.hpp's link ids and weights), a route's row holding its engine links (or, inside a
//   node, its memory link) after its hops.
//
// It takes the same decisions as Tac3Objective step for step, including when it asks the
// annealer for the acceptance threshold, so a search gives the same result with either engine
// (tests/search/incremental_test.cpp and tests/model/model_test.cpp check it against the
// reference evaluator after every move, tests/search/annealer_test.cpp whole searches against
// the general engine's).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "tac3map/search/incremental.hpp"
#include "tac3map/search/tac3_step.hpp"

namespace tac3map {

// The largest of `count` loads (count x sizeof(load) a multiple of 64; 16-bit loads below
// 2^15), knowing none exceeds `ceiling`: the pass stops at the first 64-byte block that
// reaches it.
std::uint32_t largestLoad(const std::uint8_t* loads, std::uint32_t count, std::uint32_t ceiling);
std::uint32_t largestLoad(const std::uint16_t* loads, std::uint32_t count, std::uint32_t ceiling);

class CompactTac3Objective : public IncrementalObjective<CompactTac3Objective>, public Tac3Totals {
 public:
  // Whether this engine can evaluate `problem` on `router`'s box (else use Tac3Objective).
  static bool fits(const Problem& problem, const Network& router);
  CompactTac3Objective(const Problem& problem, const Network& router, const Mapping& mapping);

  template <class Limit>
  bool propose(int task, int node, Limit&& limit) {
    if (weighted_)
      return rowSlots_ == 8 ? proposeWith<8, true>(task, node, limit)
                            : proposeWith<16, true>(task, node, limit);
    return rowSlots_ == 8 ? proposeWith<8, false>(task, node, limit)
                          : proposeWith<16, false>(task, node, limit);
  }
  void commit();
  void discard();

 private:
  struct Segment {
    int ccs;
    std::uint32_t newMax;
    std::uint32_t removed, added, end;  // the CCS's old and new route links in links_
  };
  // A communication as one of its tasks lists it; `partner` is its other task.
  struct Message {
    std::int32_t ccs, src, dst, partner;
  };
  // Where a task's node puts its routes in the table: the route p -> q is the row at
  // from(p) + to(q).
  struct Offsets {
    std::uint32_t from, to;
  };

  // Weighted: 16-bit weighted loads (several ranks per node), else byte counts.
  template <bool Weighted>
  using Load = std::conditional_t<Weighted, std::uint16_t, std::uint8_t>;

  template <int Row, bool Weighted, class Limit>
  bool proposeWith(int task, int node, Limit&& limit);
  // Re-routes the CCS's messages of the move (the moving task's [a, aEnd), the other task's
  // [b, bEnd)) in place and records the segment; returns its new largest load.
  template <int Row, bool Weighted>
  std::uint32_t evaluate(int t, const Message* a, const Message* aEnd, const Message* b,
                         const Message* bEnd);
  template <bool Weighted>
  void undo();
  template <int Row>
  [[gnu::always_inline]] inline std::uint16_t* gatherRoutes(const Message* a, const Message* aEnd,
                                                            const Message* b, const Message* bEnd,
                                                            const Offsets* at,
                                                            std::uint16_t* out) const;
  Offsets offsetsOf(int node) const {
    return {static_cast<std::uint32_t>(node) * static_cast<std::uint32_t>(nodes_ * rowSlots_),
            static_cast<std::uint32_t>(node * rowSlots_)};
  }

  template <bool Weighted>
  Load<Weighted>* loads(int t) {
    const std::size_t at = static_cast<std::size_t>(t) * scanned_;
    if constexpr (Weighted)
      return wideLoad_.data() + at;
    else
      return load_.data() + at;
  }
  // CCS t's cost for one occurrence when its largest load is `most` (counts: messages on its
  // busiest network link; weighted: its largest weighted load, with linkWeight_ 1, no floor).
  std::uint64_t costOf(int t, std::uint32_t most) const {
    return size_[t] * std::max<std::uint64_t>(std::uint64_t{linkWeight_} * most, nodeFloor_[t]);
  }

  int nodes_ = 0;
  bool weighted_ = false;
  // A route is a row of rowSlots_ (8 or 16) slots: its dense link ids, then anything, and its
  // length in the last slot.
  int rowSlots_ = 8;
  std::uint32_t scanned_ = 0;  // loads per CCS (its links, rounded up to 64 bytes)
  std::vector<std::uint16_t> routes_;
  std::vector<std::uint8_t> load_;       // per CCS its link loads: counts
  std::vector<std::uint16_t> wideLoad_;  // or weighted loads
  std::vector<std::uint16_t> weight_;    // weighted: per dense link id
  std::vector<std::uint32_t> maxLoad_;   // per CCS: its largest count (or weighted load)
  // Counts: a network message's weight (model.hpp); weighted loads: 1.
  std::uint32_t linkWeight_ = 1;
  std::vector<std::uint64_t> size_;  // per CCS: its one message size
  // Counts, per CCS: its engine links' largest weighted load, the same for every mapping (0 when
  // the model does not charge nodes, and with weighted loads).
  std::vector<std::uint64_t> nodeFloor_;
  std::vector<Message> messages_;  // per task, sorted by CCS
  std::vector<std::uint32_t> messageStart_;
  std::vector<Offsets> now_, after_;  // per task: now, and once the proposed move is made

  std::vector<Segment> segments_;     // of the proposed move
  std::vector<std::uint16_t> links_;  // the move's route links, segment after segment
};

template <int Row>
std::uint16_t* CompactTac3Objective::gatherRoutes(const Message* a, const Message* aEnd,
                                                  const Message* b, const Message* bEnd,
                                                  const Offsets* at, std::uint16_t* out) const {
  // Locals: the copies are byte stores, which could alias any member as far as the compiler
  // knows, so members read in the loop would be reloaded after each one.
  const std::uint16_t* const routes = routes_.data();
  const int task = move_.task;
  const auto copy = [&](const Message& m) {
    const std::uint16_t* row = routes + at[m.src].from + at[m.dst].to;
    std::memcpy(out, row, Row * sizeof(std::uint16_t));
    out += row[Row - 1];
  };
  for (; a != aEnd; ++a) copy(*a);
  for (; b != bEnd; ++b)
    if (b->partner != task) copy(*b);  // else copied from a's side
  return out;
}

template <int Row, bool Weighted, class Limit>
bool CompactTac3Objective::proposeWith(int task, int node, Limit&& limit) {
  move_ = placement_.makeMove(task, node);
  after_[move_.task] = offsetsOf(move_.node);
  if (move_.other >= 0) after_[move_.other] = offsetsOf(move_.from);
  segments_.clear();
  beginProposal();
  std::int64_t slack = initialSlack();
  const Message* a = messages_.data() + messageStart_[move_.task];
  const Message* aEnd = messages_.data() + messageStart_[move_.task + 1];
  const Message *b = aEnd, *bEnd = aEnd;
  if (move_.other >= 0) {
    b = messages_.data() + messageStart_[move_.other];
    bEnd = messages_.data() + messageStart_[move_.other + 1];
  }
  // The CCSs of the two tasks' communications, ascending (both lists are sorted by CCS).
  while (a != aEnd || b != bEnd) {
    int t = a != aEnd ? a->ccs : b->ccs;
    if (b != bEnd && b->ccs < t) t = b->ccs;
    const Message *aFirst = a, *bFirst = b;
    while (a != aEnd && a->ccs == t) ++a;
    while (b != bEnd && b->ccs == t) ++b;
    enter(t, slack);
    const std::uint64_t newCost = costOf(t, evaluate<Row, Weighted>(t, aFirst, a, bFirst, b));
    // Tac3Objective also looks while the new routes go in; looking once at the end is the
    // same decision, as the loads (and so this lower bound) only rise meanwhile.
    const bool tooHigh = certainlyTooHigh(t, newCost, slack, limit);
    settle(t, newCost);
    if (tooHigh) {
      discard();
      return false;
    }
  }
  return true;
}

template <int Row, bool Weighted>
std::uint32_t CompactTac3Objective::evaluate(int t, const Message* a, const Message* aEnd,
                                             const Message* b, const Message* bEnd) {
  Load<Weighted>* load = loads<Weighted>(t);
  Segment s{t, 0, 0, 0, 0};
  s.removed = segments_.empty() ? 0 : segments_.back().end;
  std::uint16_t* const removed = links_.data() + s.removed;
  std::uint16_t* const added = gatherRoutes<Row>(a, aEnd, b, bEnd, now_.data(), removed);
  std::uint16_t* const end = gatherRoutes<Row>(a, aEnd, b, bEnd, after_.data(), added);
  s.added = static_cast<std::uint32_t>(added - links_.data());
  s.end = static_cast<std::uint32_t>(end - links_.data());
  // The step of tac3_step.hpp on counts or weighted loads; the gathered link lists are what
  // undoes it.
  Tac3Step<Load<Weighted>> step{load};
  const auto keep = [](std::uint32_t, std::uint32_t) {};
  if constexpr (Weighted) {
    const std::uint16_t* const weight = weight_.data();  // a local, as in gatherRoutes
    for (const std::uint16_t* l = removed; l != added; ++l) step.out(*l, weight[*l], keep);
    for (const std::uint16_t* l = added; l != end; ++l) step.in(*l, weight[*l], keep);
    addPairs(t, step.pairs);
  } else {
    for (const std::uint16_t* l = removed; l != added; ++l) step.out(*l, 1, keep);
    for (const std::uint16_t* l = added; l != end; ++l) step.in(*l, 1, keep);
    addPairs(t, step.pairs * linkWeight_ * linkWeight_);
  }
  const std::uint32_t oldMax = maxLoad_[t];
  s.newMax =
      step.newMax(oldMax, [&](std::uint32_t) { return largestLoad(load, scanned_, oldMax); });
  segments_.push_back(s);
  return s.newMax;
}

inline void CompactTac3Objective::commit() {
  for (const Segment& s : segments_) {
    maxLoad_[s.ccs] = s.newMax;
    cost_[s.ccs] = costOf(s.ccs, s.newMax);
  }
  commitTotals();
  placement_.apply(move_);
  now_[move_.task] = after_[move_.task];
  if (move_.other >= 0) now_[move_.other] = after_[move_.other];
  segments_.clear();
}

inline void CompactTac3Objective::discard() {
  if (weighted_)
    undo<true>();
  else
    undo<false>();
  after_[move_.task] = now_[move_.task];
  if (move_.other >= 0) after_[move_.other] = now_[move_.other];
  segments_.clear();
}

template <bool Weighted>
void CompactTac3Objective::undo() {
  const std::uint16_t* const links = links_.data();  // locals, as in gatherRoutes
  const std::uint16_t* const weight = weight_.data();
  for (const Segment& s : segments_) {
    Load<Weighted>* load = loads<Weighted>(s.ccs);
    const std::uint16_t *l = links + s.removed, *added = links + s.added, *end = links + s.end;
    if constexpr (Weighted) {
      for (; l != added; ++l) load[*l] = static_cast<std::uint16_t>(load[*l] + weight[*l]);
      for (; l != end; ++l) load[*l] = static_cast<std::uint16_t>(load[*l] - weight[*l]);
    } else {
      for (; l != added; ++l) ++load[*l];
      for (; l != end; ++l) --load[*l];
    }
  }
}

}  // namespace tac3map
