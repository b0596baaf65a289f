#include "tac3map/search/node_swap.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "tac3map/io/error.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/search/incremental_compact.hpp"
#include "tac3map/search/incremental_general.hpp"

namespace tac3map {
namespace {

template <class Objective>
NodeSwapResult descend(const Problem& problem, const Network& router, const Mapping& start,
                       const Allocation& allocation, std::uint64_t budget,
                       const Deadline& deadline) {
  NodeSwapResult result;
  result.mapping = start;
  if (deadline.expired()) {
    result.timedOut = true;
    return result;
  }
  Objective state(problem, router, start);
  const Placement& placement = state.placement();
  const int slots = placement.slotsPerNode();
  const int nodes = router.nodeCount();
  std::vector<int> held;  // the allocation's nodes, in id order
  for (int node = 0; node < nodes; ++node)
    if (allocation.holds(node)) held.push_back(node);
  if (slots < 2 || held.size() < 2) return result;
  const bool allPairs = static_cast<int>(held.size()) <= kNodeSwapAllPairs;
  // Large allocations: the nodes of the ranks' partners and their neighbours (built once per
  // node and pass into reused arrays: no allocation per trial).
  std::vector<int> partners;
  std::vector<std::uint32_t> seen(static_cast<std::size_t>(nodes), 0);
  std::uint32_t stamp = 0;
  const auto partnerNodes = [&](int node) -> const std::vector<int>& {
    partners.clear();
    if (++stamp == 0) {
      std::fill(seen.begin(), seen.end(), 0);
      stamp = 1;
    }
    const auto add = [&](int n) {
      if (n < 0 || n == node || !allocation.holds(n) || seen[n] == stamp) return;
      seen[n] = stamp;
      partners.push_back(n);
    };
    for (int slot = 0; slot < slots; ++slot) {
      const int task = placement.taskAt(node * slots + slot);
      if (task < 0) continue;
      for (const int* c = placement.incidentBegin(task); c != placement.incidentEnd(task); ++c) {
        const int partner = problem.src[*c] == task ? problem.dst[*c] : problem.src[*c];
        const int near = placement.nodeOf(partner);
        add(near);
        for (int k = 0; k < router.nearbySlots(); ++k) add(router.nearby(near, k));
      }
    }
    std::sort(partners.begin(), partners.end());  // a fixed order, whatever the hash of ranks
    return partners;
  };
  const auto everything = [] { return std::numeric_limits<double>::infinity(); };
  const auto incident = [&](int task) -> std::uint64_t {
    return task < 0 ? 0
                    : static_cast<std::uint64_t>(placement.incidentEnd(task) -
                                                 placement.incidentBegin(task));
  };
  // Swaps slot s of nodes a and b for s < upTo (an involution: doing it twice restores them);
  // false if the engine refused a move (then the slots before it stay swapped: `done`).
  const auto swapSlots = [&](int a, int b, int upTo, int& done) {
    for (done = 0; done < upTo; ++done) {
      int task = placement.taskAt(a * slots + done), to = b * slots + done;
      if (task < 0) {  // a free slot on a: move b's rank there
        task = placement.taskAt(b * slots + done);
        to = a * slots + done;
      }
      if (task < 0) continue;  // both slots free
      result.work += incident(task) + incident(placement.taskAt(to));
      if (!state.propose(task, to, everything)) return false;
      state.commit();
    }
    return true;
  };
  std::uint64_t nextCheck = kNodeSwapCheckWork;
  const auto tryPair = [&](int a, int b) {
    if (result.work >= nextCheck) {
      nextCheck = result.work + kNodeSwapCheckWork;
      if (deadline.expired()) result.timedOut = true;
    }
    if (result.timedOut || result.work >= budget) return false;
    const auto before = state.value();
    const std::uint64_t pairsBefore = state.secondary();
    ++result.trials;
    int done = 0;
    const bool whole = swapSlots(a, b, slots, done);
    if (whole && (state.value() < before ||
                  (state.value() == before && state.secondary() < pairsBefore))) {
      ++result.swaps;
      return true;
    }
    int undone = 0;
    swapSlots(a, b, done, undone);  // back as it was
    return false;
  };
  bool moved = true;
  while (moved && result.passes < kNodeSwapMaxPasses && result.work < budget &&
         !result.timedOut) {
    moved = false;
    ++result.passes;
    for (std::size_t i = 0; i < held.size() && !result.timedOut; ++i) {
      const int a = held[i];
      if (allPairs) {
        for (std::size_t j = i + 1; j < held.size(); ++j) moved |= tryPair(a, held[j]);
      } else {
        for (int b : partnerNodes(a)) moved |= tryPair(a, b);
      }
    }
  }
  result.mapping = placement.mapping();
  return result;
}

}  // namespace

NodeSwapResult swapNodeContents(const Problem& problem, const Network& router,
                                const Mapping& start, const Schedule& schedule,
                                std::uint64_t budget, const Deadline& deadline) {
  const bool fits = CompactTac3Objective::fits(problem, router);
  if (schedule.tac3Engine == Tac3Engine::Compact && !fits)
    throw InputError("the compact tac3 engine cannot evaluate this problem on this box");
  if (fits && schedule.tac3Engine != Tac3Engine::General)
    return descend<CompactTac3Objective>(problem, router, start, schedule.allocation, budget,
                                         deadline);
  return descend<Tac3Objective>(problem, router, start, schedule.allocation, budget, deadline);
}

}  // namespace tac3map
