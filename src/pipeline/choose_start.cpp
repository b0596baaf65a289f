#include "tac3map/pipeline/choose_start.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <utility>

#include "tac3map/io/error.hpp"
#include "tac3map/search/node_swap.hpp"
#include "tac3map/search/objectives.hpp"

namespace tac3map {
namespace {

// The refinement of each start with K > 1 (below): its seed, fixed, and its work, a quarter of
// the refinement after the search (nodeRefinementBudget): about 15 rounds of kicks on CG-64
// under the default schedule.
constexpr std::uint64_t kStartRefinementSeed = 24;

// The schedule of the quick hop-bytes searches from the named starts: the main search's,
// annealed to its end on one level, within the starts' deadline.
Schedule quickHopBytesSchedule(const Schedule& schedule) {
  Schedule tahb = schedule;
  tahb.earlyStop = false;
  tahb.refiner = "annealing";  // a quick look from each start; the main search may go deeper
  tahb.timeLimit = 0;
  return tahb;
}

// The candidate with the lowest `objective` among those that may start the search, the first
// on ties.
std::size_t lowest(const std::vector<StartCandidate>& candidates, ObjectiveKind objective) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i)
    if (candidates[i].mayStart && objectiveValue(candidates[i].scores, objective) <
                                      objectiveValue(candidates[best].scores, objective))
      best = i;
  return best;
}

// A hop-bytes search under `schedule` from candidate `from` (reusing its scores), added as the
// candidate `name`.
void addHopBytesSearch(const Problem& problem, const Network& router, const Schedule& schedule,
                       std::uint64_t seed, std::size_t from, const std::string& name,
                       ChosenStart& result) {
  const ExactScores startScores = result.candidates[from].scores;
  const SearchResult r =
      anneal(problem, router, ObjectiveKind::Tahb, result.candidates[from].mapping, schedule, seed,
             nullptr, &startScores);
  if (r.stopped == "time-limit") result.timeLimited = true;
  result.candidates.push_back({name, r.best, r.bestScores});
}

// The hop-bytes objective's own search (its SearchDefaults' temperatures, t0For the job's size,
// and refiner; one chain, `seed`) from the candidate with the fewest byte-hops so far, cooled by
// kDeepHopBytesCooling. The quick searches above run the main search's schedule (for tac3 t0
// 10, or 1 / tasks above 8,192 tasks, cooling 0.9), which ends in the basin of its start; the
// deep one crosses basins, and its map can have the lower contention too. NPB CG class A on FX10
// 2x2x2x2x3x2: the best quick search gave tac3 7.00 ms; the deep search 5.84 ms, simulated 0.770 of
// identity where the tahb map runs 0.818 (docs/validation.md). At tahb's own cooling (0.995: 8 M
// trials, 1 s on CG-64, 10 s under the sanitizers) the same run reached 0.735; 0.98 costs a quarter
// of that.
void deepHopBytesSearch(const Problem& problem, const Network& router, const Schedule& schedule,
                        std::uint64_t seed, const Deadline& until, int searchesAfter,
                        ChosenStart& result) {
  const std::size_t fewest = lowest(result.candidates, ObjectiveKind::Tahb);
  const std::string name = "deep tahb-search from " + result.candidates[fewest].name;
  if (until.expired()) {
    result.skipped.push_back(name);
    result.timeLimited = true;
    return;
  }
  const SearchDefaults& defaults = objectiveSpec(ObjectiveKind::Tahb).defaults;
  Schedule deep = schedule;
  deep.t0 = defaults.t0For(problem.tasks);
  deep.tEnd = defaults.tEnd;
  deep.cooling = std::min(defaults.cooling, kDeepHopBytesCooling);
  deep.earlyStop = false;
  deep.timeLimit = 0;
  // An equal share with the searches that follow (the refinements of K > 1).
  deep.deadline = until.split(1 + searchesAfter).reserve(result.scoringSeconds);
  addHopBytesSearch(problem, router, deep, seed, fewest, name, result);
}

}  // namespace

ChosenStart chooseStart(const Problem& problem, const Network& router, ObjectiveKind objective,
                        const std::vector<std::pair<std::string, StartBuilder>>& named,
                        const Schedule& schedule, std::uint64_t seed, Progress* progress) {
  if (named.empty()) throw SettingError("init", " auto: no start applies to this job");
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  };
  const auto began = Clock::now();
  const Deadline until = schedule.until();
  const bool searches = objective != ObjectiveKind::Tahb;
  const bool refines = objective == ObjectiveKind::Tac3 && problem.model.ranksPerNode > 1;
  // Only map's flow ranking reads the extra seeds' maps: tac3, where the flow model can rank the
  // job (Schedule::flowCandidates), and not under a time limit, whose time goes to the search
  // first.
  const bool extraSeeds =
      objective == ObjectiveKind::Tac3 && schedule.flowCandidates && !until.limited();
  if (progress) {
    progress->startStep.store(0, std::memory_order_relaxed);
    progress->startSteps.store(
        static_cast<int>(named.size() * (1 + (searches ? 1 : 0) + (refines ? 2 : 0) +
                                         (extraSeeds ? kFlowOnlySeeds : 0)) +
                         (searches ? 1 : 0)),
        std::memory_order_relaxed);
    progress->phase.store(Phase::Starts, std::memory_order_relaxed);
  }
  const auto stepDone = [&] {
    if (progress) progress->startStep.fetch_add(1, std::memory_order_relaxed);
  };
  ChosenStart result;
  double lastStart = 0;  // seconds the last start took to build and score
  for (const auto& [name, build] : named) {
    // Out of time, or too little left for another start like the last one: the starts built so
    // far (always the first).
    if (!result.candidates.empty() && (until.expired() || until.left() < lastStart)) {
      result.skipped.push_back(name);
      result.timeLimited = true;
      stepDone();
      if (searches) stepDone();  // nor its search
      continue;
    }
    const auto building = Clock::now();
    Mapping mapping = build();
    const auto scoring = Clock::now();
    const ExactScores scores = evaluateExact(problem, router, mapping);
    result.scoringSeconds = std::max(result.scoringSeconds, since(scoring));
    lastStart = since(building);
    result.candidates.push_back({name, std::move(mapping), scores});
    stepDone();
    if (objective == ObjectiveKind::Tac3 && schedule.earlyStop &&
        scores.tac3ByteCounts == scores.lowerBoundBytes) {
      result.chosen = result.candidates.size() - 1;
      result.seconds = since(began);
      return result;
    }
  }
  const std::size_t built = result.candidates.size();  // the named starts built
  Schedule tahb = quickHopBytesSchedule(schedule);
  // The quick hop-bytes search from named start i with `searchSeed`, NAME, sharing what is
  // left of the starts' time equally with `parts` - 1 more searches, less the time to score
  // its result; skipped once that time is up. Whether it ran.
  const auto quickSearch = [&](std::size_t i, std::uint64_t searchSeed, const std::string& name,
                               std::size_t parts) {
    const bool runs = !until.expired();
    if (runs) {
      tahb.deadline = until.split(static_cast<int>(parts)).reserve(result.scoringSeconds);
      addHopBytesSearch(problem, router, tahb, searchSeed, i, name, result);
    } else {
      result.skipped.push_back(name);
      result.timeLimited = true;
    }
    stepDone();
    return runs;
  };
  // A hop-bytes search from each named start: cheap (tahb trials are the fastest), and on
  // plateaus of the contention objective where it ends depends on where it began.
  if (searches) {
    const std::size_t starts = result.candidates.size();
    for (std::size_t i = 0; i < starts; ++i)  // the deep search below takes one more share
      quickSearch(i, seed, "tahb-search from " + result.candidates[i].name, starts - i + 1);
    deepHopBytesSearch(problem, router, schedule, seed, until,
                       refines ? static_cast<int>(2 * built) : 0, result);
    stepDone();
  }
  // K > 1 with tac3: each named start refined by whole-node swaps and kicks (node_swap.hpp),
  // with a fixed seed, so that the chosen start does not depend on --seed. The annealing's
  // single-rank moves break up a start's good groups of K ranks early (CG-64, K = 4 on FX10
  // 2x1x2x2x1x2: block placement's groups, rearranged over the nodes, give 1.258 ms; two seeds
  // in three annealed from them ended at 1.678); refined here, every seed starts from 1.258.
  // Each start is refined twice, with each kind of kick (NodeKicks): which kind reaches the
  // lower plateau depends on the job, and a seed's search seldom leaves the plateau of its
  // start (CG-64, K = 4 on 1x1x4x2x1x2: one chain in 24 reached 1.678 ms from 1.887).
  if (refines) {
    constexpr std::pair<NodeKicks, const char*> kKinds[] = {
        {NodeKicks::Mixed, "node-swaps from "}, {NodeKicks::RankSwaps, "rank-swaps from "}};
    constexpr std::size_t kinds = std::size(kKinds);
    for (std::size_t i = 0; i < built; ++i)
      for (std::size_t k = 0; k < kinds; ++k) {
        const std::string name = kKinds[k].second + result.candidates[i].name;
        if (until.expired()) {
          result.skipped.push_back(name);
          result.timeLimited = true;
          stepDone();
          continue;
        }
        const Deadline share =
            until.split(static_cast<int>(kinds * (built - i) - k)).reserve(result.scoringSeconds);
        const NodeSwapResult r =
            swapNodeContents(problem, router, result.candidates[i].mapping, schedule,
                             nodeRefinementBudget(problem, schedule) / 4, kStartRefinementSeed,
                             share, kKinds[k].first);
        if (r.timedOut) result.timeLimited = true;
        result.candidates.push_back({name, r.mapping, evaluateExact(problem, router, r.mapping)});
        stepDone();
      }
  }
  // The quick hop-bytes search from each named start again with kFlowOnlySeeds more seeds,
  // candidates for map's flow ranking only (StartCandidate::mayStart): maps of nearly the same
  // byte-hops run quite differently, and the flow model tells them apart where tac3 cannot.
  // NPB SP class W: the four seeds' maps from identity, tofu-default and graph simulate 33.3 to
  // 35.0 ms in the flow model, the first seed's best 34.2, the tahb map 33.8.
  if (extraSeeds) {
    const std::size_t searchesLeft = built * kFlowOnlySeeds;
    std::size_t done = 0;
    for (std::uint64_t extra = 1; extra <= kFlowOnlySeeds; ++extra)
      for (std::size_t i = 0; i < built; ++i, ++done)
        if (quickSearch(i, seed + extra,
                        "tahb-search from " + result.candidates[i].name + " (seed " +
                            std::to_string(seed + extra) + ")",
                        searchesLeft - done))
          result.candidates.back().mayStart = false;
  }
  result.chosen = lowest(result.candidates, objective);
  result.seconds = since(began);
  return result;
}

}  // namespace tac3map
