#include "tac3map/annealer.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "tac3map/error.hpp"
#include "tac3map/incremental.hpp"
#include "tac3map/random.hpp"

namespace tac3map {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Difference of two exact values as a double, without unsigned wrap-around.
template <class V>
double difference(V after, V before) {
  return after >= before ? static_cast<double>(after - before)
                         : -static_cast<double>(before - after);
}

// Trials between two looks at the clock and two progress publications.
constexpr std::uint64_t kCheckEvery = 4096;

template <class Objective>
SearchResult run(const Problem& problem, const Router& router, const Mapping& initial,
                 const Schedule& schedule, std::uint64_t seed, double reference,
                 std::uint64_t stopValue, bool canStopEarly, Progress* progress) {
  const auto start = Clock::now();
  SearchResult result;
  result.best = initial;
  Objective state(problem, router, initial);
  const int tasks = problem.tasks, nodes = router.nodeCount();
  if (problem.communicationCount() == 0 || nodes < 2 || tasks == 0) {
    result.stopped = "nothing-to-optimize";
    return result;
  }
  auto bestValue = state.value();
  std::uint64_t bestSecondary = state.secondary();
  if (canStopEarly && bestValue == stopValue) {
    result.stopped = "lower-bound";
    return result;
  }
  // Secondary differences are scaled per communication so that they are of the same order as
  // the normalised objective (one extra shared link ~ 1 / communications).
  const double secondaryScale = 1.0 / static_cast<double>(problem.communicationCount());
  Rng rng(seed);
  result.stopped = "schedule";
  std::uint64_t sinceCheck = 0;
  for (double t = schedule.t0; t >= schedule.tEnd; t *= schedule.cooling) {
    for (std::uint64_t k = 0; k < schedule.trialsPerTemperature; ++k) {
      if (++sinceCheck == kCheckEvery) {
        sinceCheck = 0;
        if (progress) progress->publish(kCheckEvery, t, static_cast<double>(bestValue) / reference);
        if (schedule.timeLimit > 0 && seconds(start) >= schedule.timeLimit) {
          result.stopped = "time-limit";
          result.seconds = seconds(start);
          return result;
        }
      }
      ++result.trials;
      const int task = static_cast<int>(rng.below(tasks));
      const int from = state.placement().nodeOf(task);
      int node = static_cast<int>(rng.below(nodes - 1));
      if (node >= from) ++node;
      const auto before = state.value();
      const std::uint64_t secondaryBefore = state.secondary();
      state.relocate(task, node);
      const auto after = state.value();
      bool accept;
      if (after < before) {
        accept = true;
      } else if (after > before) {
        accept = rng.unit() < std::exp(-difference(after, before) / reference / t);
      } else {
        const std::uint64_t secondaryAfter = state.secondary();
        accept = secondaryAfter <= secondaryBefore ||
                 rng.unit() <
                     std::exp(-difference(secondaryAfter, secondaryBefore) * secondaryScale / t);
      }
      if (!accept) {
        state.relocate(task, from);
        continue;
      }
      ++result.accepted;
      if (after < bestValue || (after == bestValue && state.secondary() < bestSecondary)) {
        bestValue = after;
        bestSecondary = state.secondary();
        result.best.nodeOfTask = state.placement().nodeOfTask();
        if (canStopEarly && bestValue == stopValue) {
          result.stopped = "lower-bound";
          result.seconds = seconds(start);
          return result;
        }
      }
    }
  }
  result.seconds = seconds(start);
  return result;
}

}  // namespace

std::uint64_t Schedule::totalTrials() const {
  std::uint64_t temperatures = 0;
  for (double t = t0; t >= tEnd; t *= cooling) ++temperatures;
  return temperatures * trialsPerTemperature;
}

void checkSchedule(const Schedule& s) {
  if (!(s.t0 > 0)) throw InputError("--t0 must be positive");
  if (!(s.tEnd > 0) || s.tEnd > s.t0) throw InputError("--t-end must be positive and at most --t0");
  if (!(s.cooling > 0 && s.cooling < 1)) throw InputError("--cooling must be between 0 and 1");
  if (s.trialsPerTemperature == 0) throw InputError("--trials must be at least 1");
  if (s.timeLimit < 0) throw InputError("--time-limit must be >= 0");
}

void Progress::publish(std::uint64_t newTrials, double t, double energy) {
  trials.fetch_add(newTrials, std::memory_order_relaxed);
  temperature.store(t, std::memory_order_relaxed);
  double best = bestEnergy.load(std::memory_order_relaxed);
  while ((!started.load(std::memory_order_relaxed) || energy < best) &&
         !bestEnergy.compare_exchange_weak(best, energy, std::memory_order_relaxed)) {
  }
  started.store(true, std::memory_order_relaxed);
}

SearchResult anneal(const Problem& problem, const Router& router, ObjectiveKind objective,
                    const Mapping& initial, const Schedule& schedule, std::uint64_t seed,
                    Progress* progress) {
  checkSchedule(schedule);
  double reference = referenceValue(problem, objective);
  if (reference <= 0) reference = 1;
  SearchResult result;
  switch (objective) {
    case ObjectiveKind::Tac3:
      result = run<Tac3Objective>(problem, router, initial, schedule, seed, reference,
                                  tac3LowerBoundBytes(problem), schedule.earlyStop, progress);
      break;
    case ObjectiveKind::Tahb:
      result = run<TahbObjective>(problem, router, initial, schedule, seed, reference, 0, false,
                                  progress);
      break;
    case ObjectiveKind::RmattO2f:
      result = run<RmattObjective>(problem, router, initial, schedule, seed, reference, 0, false,
                                   progress);
      break;
  }
  result.bestScores = evaluateExact(problem, router, result.best);
  return result;
}

ChainsResult annealChains(const Problem& problem, const Router& router, ObjectiveKind objective,
                          const Mapping& initial, const Schedule& schedule, std::uint64_t seed,
                          int chains, int threads, Progress* progress) {
  if (chains < 1) throw InputError("--chains must be at least 1");
  if (threads < 1) throw InputError("--threads must be at least 1");
  checkSchedule(schedule);
  const auto start = Clock::now();
  ChainsResult result;
  result.chains.resize(chains);
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int i = next++; i < chains; i = next++) {
      result.chains[i] = anneal(problem, router, objective, initial, schedule, seed + i, progress);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min(threads, chains); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  const auto value = [&](std::size_t i) {
    return objectiveValue(result.chains[i].bestScores, objective);
  };
  for (std::size_t i = 1; i < result.chains.size(); ++i)
    if (value(i) < value(result.best)) result.best = i;
  result.seconds = seconds(start);
  return result;
}

}  // namespace tac3map
