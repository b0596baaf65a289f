#include "tac3map/search/tie_break.hpp"

#include <algorithm>

#include "tac3map/io/error.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/search/incremental_compact.hpp"
#include "tac3map/search/incremental_general.hpp"

namespace tac3map {
namespace {

// The positions a task is tried on, in a fixed order. Small boxes: every position of the
// allocation. Large boxes: every slot of its partners' nodes and of their neighbours.
class Candidates {
 public:
  Candidates(const Problem& problem, const Network& router, const Placement& placement,
             const Allocation& allocation)
      : problem_(problem), router_(router), placement_(placement), allocation_(allocation) {
    const int nodes = router.nodeCount();
    const int held = allocation.isWholeBox() ? nodes : allocation.nodeCount();
    all_ = static_cast<long long>(held) * placement.slotsPerNode() <= kTieBreakAllPositions;
    if (all_)
      for (int node = 0; node < nodes; ++node)
        if (allocation.holds(node)) allNodes_.push_back(node);
    seen_.assign(nodes, 0);
  }

  // The nodes to try `task` on (its own node included; the caller skips it).
  const std::vector<int>& nodesFor(int task) {
    if (all_) return allNodes_;
    nodes_.clear();
    if (++stamp_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
    const auto add = [&](int node) {
      if (node < 0 || !allocation_.holds(node) || seen_[node] == stamp_) return;
      seen_[node] = stamp_;
      nodes_.push_back(node);
    };
    for (const int* c = placement_.incidentBegin(task); c != placement_.incidentEnd(task); ++c) {
      const int partner = problem_.src[*c] == task ? problem_.dst[*c] : problem_.src[*c];
      const int near = placement_.nodeOf(partner);
      add(near);
      for (int slot = 0; slot < router_.nearbySlots(); ++slot) add(router_.nearby(near, slot));
    }
    return nodes_;
  }

 private:
  const Problem& problem_;
  const Network& router_;
  const Placement& placement_;
  const Allocation& allocation_;
  bool all_ = false;
  std::vector<int> allNodes_, nodes_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
};

template <class Objective>
TieBreakResult descend(const Problem& problem, const Network& router, const Mapping& start,
                       const Allocation& allocation, std::uint64_t budget, const Deadline& deadline,
                       TieOrder order) {
  TieBreakResult result;
  if (deadline.expired()) {
    result.mapping = start;
    result.timedOut = true;
    return result;
  }
  std::uint64_t nextCheck = kTieBreakCheckWork;
  Objective state(problem, router, start);
  const Placement& placement = state.placement();
  Candidates candidates(problem, router, placement, allocation);
  const int slots = placement.slotsPerNode();
  // Byte-hops the move adds (negative: saves), from the hop counts of its communications'
  // routes now and after; the union copies of phase overlap are not the trace's messages.
  const auto hopDelta = [&](const Move& move) {
    std::int64_t delta = 0;
    placement.forEachAffected(move, [&](int c) {
      if (static_cast<std::size_t>(c) >= problem.realCommunications) return;
      const int s = problem.src[c], d = problem.dst[c];
      const int before = router.hops(placement.nodeOf(s), placement.nodeOf(d));
      const int after = router.hops(placement.nodeAfter(move, s), placement.nodeAfter(move, d));
      delta += static_cast<std::int64_t>(problem.volume[c]) * (after - before);
    });
    return delta;
  };
  const auto incidentCount = [&](int task) -> std::uint64_t {
    return task < 0 ? 0
                    : static_cast<std::uint64_t>(placement.incidentEnd(task) -
                                                 placement.incidentBegin(task));
  };
  // A rise of the objective is never taken: the engine may stop as soon as it sees one.
  const auto noRise = [] { return 0.0; };
  // Tries `task` on its candidate positions; makes the first move that lowers the key.
  const auto improve = [&](int task) {
    for (int node : candidates.nodesFor(task)) {
      if (node == placement.nodeOf(task)) continue;  // slots of one node: same loads
      for (int slot = 0; slot < slots; ++slot) {
        const int position = node * slots + slot;
        if (result.work >= budget || result.timedOut) return false;
        if (result.work >= nextCheck) {
          nextCheck = result.work + kTieBreakCheckWork;
          if (deadline.expired()) {
            result.timedOut = true;
            return false;
          }
        }
        const Move move = placement.makeMove(task, position);
        const std::uint64_t cost = incidentCount(move.task) + incidentCount(move.other);
        ++result.examined;
        result.work += cost;
        // Only moves that do not lengthen routes go to the engine: the descent is for ties, and
        // a longer route rarely lowers tac3 where the annealer has already searched.
        const std::int64_t hops = hopDelta(move);
        if (hops > 0) continue;
        const auto before = state.value();
        const std::uint64_t pairsBefore = state.secondary();
        ++result.trials;
        result.work += cost;
        if (!state.propose(task, position, noRise)) continue;
        const auto after = state.proposedValue();
        const std::uint64_t pairsAfter = state.proposedSecondary();
        const bool pairsFall = pairsAfter < pairsBefore, pairsKept = pairsAfter == pairsBefore;
        const bool tieWon = order == TieOrder::PairsFirst ? pairsFall || (pairsKept && hops < 0)
                                                          : hops < 0 || (hops == 0 && pairsFall);
        const bool better = after < before || (after == before && tieWon);
        if (!better) {
          state.discard();
          continue;
        }
        state.commit();
        ++result.moves;
        return true;
      }
    }
    return false;
  };
  bool moved = true;
  while (moved && result.passes < kTieBreakMaxPasses && result.work < budget && !result.timedOut) {
    moved = false;
    ++result.passes;
    for (int task = 0; task < problem.tasks; ++task) moved |= improve(task);
  }
  result.mapping = placement.mapping();
  return result;
}

}  // namespace

std::uint64_t tieBreakBudget(const Problem& problem, std::uint64_t searchTrials, TieOrder order) {
  const double perTrial =
      problem.tasks > 0 ? 2.0 * static_cast<double>(problem.communicationCount()) / problem.tasks
                        : 1.0;
  const std::uint64_t budget = std::max(
      kTieBreakMinWork, static_cast<std::uint64_t>(static_cast<double>(searchTrials) * perTrial));
  if (order == TieOrder::PairsFirst) return budget;
  return std::max(budget, kHopsFirstWorkPerCommunication * problem.communicationCount());
}

TieBreakResult breakTac3Ties(const Problem& problem, const Network& router, const Mapping& start,
                             const Schedule& schedule, std::uint64_t budget,
                             const Deadline& deadline, TieOrder order) {
  const bool fits = CompactTac3Objective::fits(problem, router);
  if (schedule.tac3Engine == Tac3Engine::Compact && !fits)
    throw InputError("the compact tac3 engine cannot evaluate this problem on this box");
  if (fits && schedule.tac3Engine != Tac3Engine::General)
    return descend<CompactTac3Objective>(problem, router, start, schedule.allocation, budget,
                                         deadline, order);
  return descend<Tac3Objective>(problem, router, start, schedule.allocation, budget, deadline,
                                order);
}

}  // namespace tac3map
