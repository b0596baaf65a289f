#include "tac3map/search/annealer.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "tac3map/io/error.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"

namespace tac3map {

SearchResult anneal(const Problem& problem, const Network& router, ObjectiveKind objective,
                    const Mapping& initial, const Schedule& schedule, std::uint64_t seed,
                    Progress* progress, const ExactScores* initialScores) {
  checkSchedule(schedule);
  const RefineTask task{problem, router, objective, schedule, seed, progress, initialScores};
  return refinerFor(task).refine(task, initial);
}

std::vector<SearchResult> annealChainSubset(const Problem& problem, const Network& router,
                                            ObjectiveKind objective, const Mapping& initial,
                                            const Schedule& schedule, std::uint64_t seed,
                                            const std::vector<int>& indices, int threads,
                                            Progress* progress, const ExactScores* initialScores) {
  if (threads < 1) throw SettingError("threads", " must be at least 1");
  checkSchedule(schedule);
  std::vector<SearchResult> results(indices.size());
  std::atomic<std::size_t> next{0};
  // The chains share the schedule's deadline: `workers` run at a time, so chain k runs in
  // round k / workers, and gets an equal share of what is left for the rounds still to come,
  // less the time its result takes to score.
  const Deadline until = schedule.until();
  const int workers = std::max(1, std::min<int>(threads, static_cast<int>(indices.size())));
  const std::size_t rounds = (indices.size() + workers - 1) / workers;
  auto worker = [&] {
    for (std::size_t k = next++; k < indices.size(); k = next++) {
      Schedule chain = schedule;
      chain.timeLimit = 0;
      chain.deadline =
          until.split(static_cast<int>(rounds - k / workers)).reserve(schedule.scoringSeconds);
      results[k] = anneal(problem, router, objective, initial, chain,
                          seed + static_cast<std::uint64_t>(indices[k]), progress, initialScores);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < workers; ++t) pool.emplace_back(worker);
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

ChainsResult annealChains(const Problem& problem, const Network& router, ObjectiveKind objective,
                          const Mapping& initial, const Schedule& schedule, std::uint64_t seed,
                          int chains, int threads, Progress* progress,
                          const ExactScores* initialScores) {
  if (chains < 1) throw SettingError("chains", " must be at least 1");
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> all(chains);
  for (int i = 0; i < chains; ++i) all[i] = i;
  ChainsResult result;
  result.chains = annealChainSubset(problem, router, objective, initial, schedule, seed, all,
                                    threads, progress, initialScores);
  std::vector<ExactScores> scores;
  for (const SearchResult& chain : result.chains) scores.push_back(chain.bestScores);
  result.best = winningChain(scores, objective);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace tac3map
