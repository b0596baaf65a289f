// The annealing loop, one template over the incremental engines (incremental.hpp): the
// paper's Metropolis search with the move picker, lazy acceptance threshold, tie-break by the
// engine's secondary term and best-mapping bookkeeping. Internal to the library: objectives.cpp
// instantiates it once per objective's engine (the objective table), annealer.cpp runs it
// through that table.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "tac3map/network/network.hpp"
#include "tac3map/search/deadline.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/base/random.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map::detail {

using Clock = std::chrono::steady_clock;

inline double seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Difference of two exact values as a double, without unsigned wrap-around.
template <class V>
double difference(V after, V before) {
  return after >= before ? static_cast<double>(after - before)
                         : -static_cast<double>(before - after);
}

// Trials between two looks at the clock and two progress publications: kCheckEvery, or fewer
// when trials are costly, so that about kCheckWork communications are re-routed between two
// looks (a 1,024-rank all-to-all has 2,000 messages per rank: 4,096 of its trials took 20 s,
// far past a --time-limit of 2 s). Only the clock is read: the search itself is unchanged.
constexpr std::uint64_t kCheckEvery = 4096;
constexpr double kCheckWork = 1 << 20;
inline std::uint64_t checkInterval(const Problem& problem) {
  const double perTrial =
      2.0 * static_cast<double>(problem.communicationCount()) / std::max(1, problem.tasks);
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(kCheckWork / std::max(1.0, perTrial)),
                                   16, kCheckEvery);
}

// Picks the node a task is tried on. Global: any other node of the box. Local: the node of
// one of the task's communication partners or a node near it (Network::nearby), so that on a
// large box a trial is likely to matter (a random node is almost always far from every
// partner). A local pick may be the task's own node; the caller skips such a trial.
class MovePicker {
 public:
  MovePicker(const Placement& placement, const Problem& problem, const Network& router, bool local,
             const Allocation& allocation)
      : placement_(placement),
        problem_(problem),
        router_(router),
        local_(local),
        allocation_(allocation) {}

  int pick(int task, int from, Rng& rng) const {
    const int node = candidate(task, from, rng);
    // Outside the allocation: the trial is skipped (the caller sees the task's own node).
    return allocation_.holds(node) ? node : from;
  }

 private:
  int candidate(int task, int from, Rng& rng) const {
    const int* first = placement_.incidentBegin(task);
    const int* last = placement_.incidentEnd(task);
    if (local_ && first != last) {
      const int c = first[rng.below(static_cast<std::uint64_t>(last - first))];
      const int partner = problem_.src[c] == task ? problem_.dst[c] : problem_.src[c];
      const int near = placement_.nodeOf(partner);
      const int slots = router_.nearbySlots();
      const int k = static_cast<int>(rng.below(slots + 1));
      if (k == slots) return near;
      const int next = router_.nearby(near, k);
      return next < 0 ? near : next;
    }
    if (!allocation_.isWholeBox())
      return allocation_.node(
          static_cast<int>(rng.below(static_cast<std::uint64_t>(allocation_.nodeCount()))));
    int node = static_cast<int>(rng.below(router_.nodeCount() - 1));
    return node >= from ? node + 1 : node;
  }

  const Placement& placement_;
  const Problem& problem_;
  const Network& router_;
  bool local_;
  const Allocation& allocation_;
};

// Stops at `deadline` (deadline.hpp), looking at the clock every checkInterval trials (and once
// before building the state: a search whose share is already spent keeps its start).
template <class Objective>
SearchResult annealWith(const Problem& problem, const Network& router, const Mapping& initial,
                        const Schedule& schedule, const Deadline& deadline, std::uint64_t seed,
                        double reference, std::uint64_t stopValue, bool canStopEarly,
                        Progress* progress) {
  SearchResult result;
  result.best = initial;
  if (deadline.expired()) {
    result.stopped = "time-limit";
    return result;
  }
  if (progress) progress->phase.store(Phase::Search, std::memory_order_relaxed);
  Objective state(problem, router, initial);
  const auto start = Clock::now();  // the trials' time: building the state is not a trial
  const int tasks = problem.tasks, nodes = router.nodeCount();
  if (problem.communicationCount() == 0 || nodes < 2 || tasks == 0 ||
      (!schedule.allocation.isWholeBox() && schedule.allocation.nodeCount() < 2)) {
    result.stopped = "nothing-to-optimize";
    return result;
  }
  auto bestValue = state.value();
  std::uint64_t bestSecondary = state.secondary();
  if (canStopEarly && bestValue == stopValue) {
    result.stopped = "lower-bound";
    return result;
  }
  // The best mapping is copied only when the search is about to leave it, so that a run of
  // improving moves on a large job does not copy the whole mapping each time.
  bool atBest = true;
  const auto finish = [&](const char* why) {
    if (atBest) result.best = state.placement().mapping();
    result.stopped = why;
    result.seconds = seconds(start);
    return result;
  };
  // Secondary differences are scaled per communication so that they are of the same order as
  // the normalised objective (one extra shared link ~ 1 / communications).
  const double secondaryScale = reference / static_cast<double>(problem.communicationCount());
  const int allocated = schedule.allocation.isWholeBox() ? nodes : schedule.allocation.nodeCount();
  const MovePicker picker(state.placement(), problem, router, usesLocalMoves(schedule, allocated),
                          schedule.allocation);
  Rng rng(seed);
  // Several ranks per node: a trial tries the task in a random slot of the picked node (a
  // free one, or swaps with the rank there). One rank per node draws no slot, so that the
  // random sequence, and with it every result, is the paper setting's.
  const int slots = state.placement().slotsPerNode();
  std::uint64_t sinceCheck = 0;
  const std::uint64_t checkEvery = checkInterval(problem);
  for (double t = schedule.t0; t >= schedule.tEnd; t *= schedule.cooling) {
    const double scale = t * reference;
    for (std::uint64_t k = 0; k < schedule.trialsPerTemperature; ++k) {
      if (++sinceCheck == checkEvery) {
        sinceCheck = 0;
        if (progress) progress->publish(checkEvery, t, static_cast<double>(bestValue) / reference);
        if (deadline.expired()) return finish("time-limit");
      }
      ++result.trials;
      const int task = static_cast<int>(rng.below(tasks));
      const int from = state.placement().nodeOf(task);
      const int node = picker.pick(task, from, rng);
      if (node == from) continue;
      const int fromPosition = state.placement().positionOf(task);
      const int position =
          slots == 1
              ? node
              : node * slots + static_cast<int>(rng.below(static_cast<std::uint64_t>(slots)));
      const int other = state.placement().taskAt(position);
      // Metropolis: a rise d is accepted when d < -ln(u) * T * reference, u uniform in [0,1).
      // u is drawn only when a rise has to be judged, and the engine may stop evaluating as
      // soon as it knows the rise is too large.
      double limit = -1;
      const auto threshold = [&] {
        if (limit < 0) {
          const double u = rng.unit();
          limit = u > 0 ? -std::log(u) * scale : std::numeric_limits<double>::infinity();
        }
        return limit;
      };
      const auto before = state.value();
      const std::uint64_t secondaryBefore = state.secondary();
      if (!state.propose(task, position, threshold)) continue;
      const auto after = state.proposedValue();
      const std::uint64_t secondaryAfter = state.proposedSecondary();
      bool accept;
      if (after != before)
        accept = after < before || difference(after, before) < threshold();
      else
        accept = secondaryAfter <= secondaryBefore ||
                 difference(secondaryAfter, secondaryBefore) * secondaryScale < threshold();
      if (!accept) {
        state.discard();
        continue;
      }
      ++result.accepted;
      state.commit();
      if (after < bestValue || (after == bestValue && secondaryAfter < bestSecondary)) {
        bestValue = after;
        bestSecondary = secondaryAfter;
        atBest = true;
        if (canStopEarly && bestValue == stopValue) return finish("lower-bound");
      } else if (atBest) {
        result.best = state.placement().mapping();
        result.best.nodeOfTask[task] = from;  // as it was before this move
        if (other >= 0) result.best.nodeOfTask[other] = node;
        if (slots > 1) {
          result.best.slotOfTask[task] = fromPosition % slots;
          if (other >= 0) result.best.slotOfTask[other] = position % slots;
        }
        atBest = false;
      }
    }
  }
  return finish("schedule");
}

}  // namespace tac3map::detail
