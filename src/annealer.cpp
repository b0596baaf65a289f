#include "tac3map/annealer.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include "tac3map/error.hpp"
#include "tac3map/objectives.hpp"

namespace tac3map {

bool usesLocalMoves(const Schedule& schedule, int nodes) {
  switch (schedule.moves) {
    case MoveKind::Global:
      return false;
    case MoveKind::Local:
      return true;
    case MoveKind::Auto:
      break;
  }
  return nodes > kLocalMovesAbove;
}

MoveKind parseMoveKind(const std::string& name) {
  if (name == "auto") return MoveKind::Auto;
  if (name == "global") return MoveKind::Global;
  if (name == "local") return MoveKind::Local;
  throw InputError("--moves must be auto, global or local, not '" + name + "'");
}

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
  SearchResult result = objectiveSpec(objective).search(problem, router, initial, schedule, seed,
                                                        reference, progress);
  result.bestScores = evaluateExact(problem, router, result.best);
  return result;
}

std::vector<SearchResult> annealChainSubset(const Problem& problem, const Router& router,
                                            ObjectiveKind objective, const Mapping& initial,
                                            const Schedule& schedule, std::uint64_t seed,
                                            const std::vector<int>& indices, int threads,
                                            Progress* progress) {
  if (threads < 1) throw InputError("--threads must be at least 1");
  checkSchedule(schedule);
  std::vector<SearchResult> results(indices.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k = next++; k < indices.size(); k = next++)
      results[k] = anneal(problem, router, objective, initial, schedule,
                          seed + static_cast<std::uint64_t>(indices[k]), progress);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min<int>(threads, static_cast<int>(indices.size())); ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  return results;
}

std::size_t winningChain(const std::vector<ExactScores>& bestScores, ObjectiveKind objective) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < bestScores.size(); ++i)
    if (isBetter(bestScores[i], bestScores[best], objective)) best = i;
  return best;
}

ChainsResult annealChains(const Problem& problem, const Router& router, ObjectiveKind objective,
                          const Mapping& initial, const Schedule& schedule, std::uint64_t seed,
                          int chains, int threads, Progress* progress) {
  if (chains < 1) throw InputError("--chains must be at least 1");
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> all(chains);
  for (int i = 0; i < chains; ++i) all[i] = i;
  ChainsResult result;
  result.chains = annealChainSubset(problem, router, objective, initial, schedule, seed, all,
                                    threads, progress);
  std::vector<ExactScores> scores;
  for (const SearchResult& chain : result.chains) scores.push_back(chain.bestScores);
  result.best = winningChain(scores, objective);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace tac3map
