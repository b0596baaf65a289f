// The multilevel refiner (refiner.hpp): the job coarsened level by level (coarsening.hpp:
// tasks paired by heavy edges, the box halved) down to at most kCoarsestNodes nodes, the
// coarsest level annealed with the full schedule, then each finer level started from the
// coarser one's map and annealed cold (from kRefineT0) with moves near partners, so that a
// level only repairs what the coarser one could not see. Every level is searched by the
// annealer on its own exact engine, with trials per temperature in proportion to its tasks;
// the coarse levels minimise hop-bytes, the finest level (the job itself) the objective.
#include <algorithm>
#include <memory>

#include "tac3map/search/coarsening.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"

namespace tac3map {
namespace {

constexpr int kCoarsestNodes = 256;
// The refinement levels' first temperature (energies are objective / reference): rises of
// about a percent of the reference value are still taken, a start's structure is kept.
constexpr double kRefineT0 = 0.01;

class MultilevelRefiner : public Refiner {
 public:
  const char* name() const override { return "multilevel"; }
  const char* description() const override {
    return "coarsen (ranks paired by heavy edges, the box halved) to at most 256 nodes, anneal "
           "the coarsest, then refine each finer level by cold annealing near partners";
  }
  std::string whyNot(const RefineTask& task) const override {
    if (std::string why = task.router.whyNotHalvable(); !why.empty()) return why;
    if (task.problem.model.ranksPerNode > 1) return "several ranks per node";
    if (!task.schedule.allocation.isWholeBox()) return "the job is a node table, not a box";
    if (task.problem.tasks > task.router.nodeCount()) return "more ranks than nodes";
    for (int extent : task.router.shape())
      if (extent % 2 == 0) return {};
    return "the box has no axis of even extent to halve";
  }
  SearchResult refine(const RefineTask& task, const Mapping& start) const override;
};

SearchResult MultilevelRefiner::refine(const RefineTask& task, const Mapping& start) const {
  const Refiner& annealer = *findRefiner("annealing");
  // A start at tac3's lower bound is kept as it is (the annealer stops at once).
  const ExactScores startScores =
      task.startScores ? *task.startScores : evaluateExact(task.problem, task.router, start);
  if (task.objective == ObjectiveKind::Tac3 && task.schedule.earlyStop &&
      startScores.tac3ByteCounts == startScores.lowerBoundBytes)
    return annealer.refine(task, start);
  // No time left (--time-limit): the start as it is, without coarsening.
  if (task.schedule.until().expired()) return annealer.refine(task, start);
  // Levels, finest first (pointers: a level's router and problem must not move).
  std::vector<std::unique_ptr<CoarseLevel>> levels;
  std::vector<Mapping> starts{start};
  const Network* router = &task.router;
  const Problem* problem = &task.problem;
  while (router->nodeCount() > kCoarsestNodes) {
    auto level = coarsen(*router, *problem, task.seed + levels.size());
    if (!level) break;
    starts.push_back(restrictMapping(*level, *router, starts.back()));
    levels.push_back(std::make_unique<CoarseLevel>(std::move(*level)));
    router = levels.back()->router.get();
    problem = &levels.back()->problem;
  }
  if (levels.empty()) return annealer.refine(task, start);  // nothing to coarsen: the job
  // The levels share the search's time: the coarsest half of what is left after coarsening,
  // each finer level an equal share of what is left when it begins (deadline.hpp).
  const Deadline until = task.schedule.until();
  bool timeLimited = false;
  // Trials per temperature in proportion to a level's tasks: a coarse level has fewer tasks
  // to place, and each of its trials moves more messages.
  const auto trialsFor = [&](const Problem& level) {
    return std::max<std::uint64_t>(
        100, task.schedule.trialsPerTemperature * static_cast<std::uint64_t>(level.tasks) /
                 static_cast<std::uint64_t>(std::max(1, task.problem.tasks)));
  };
  // Coarse levels place blocks of tasks, where what counts is how far the bytes travel: they
  // search hop-bytes (tahb), and only the job's own level its objective. (Measured on the
  // 4,096-rank random graph: tac3 246 us in 8.9 s this way, 253 us in 28 s with tac3 on every
  // level: merged tasks hide most of the contention a coarse tac3 would see.)
  const ObjectiveKind coarseObjective = ObjectiveKind::Tahb;
  SearchResult total;
  const auto add = [&](const SearchResult& r) {
    total.trials += r.trials;
    total.accepted += r.accepted;
    total.seconds += r.seconds;
  };
  // The coarsest level: the full schedule, no tie-break (only the job's own level has one).
  Mapping current = starts.back();
  {
    Schedule coarsest = task.schedule;
    coarsest.breakTies = false;
    coarsest.allocation = Allocation::wholeBox(levels.back()->box.nodeCount);
    coarsest.trialsPerTemperature = trialsFor(levels.back()->problem);
    coarsest.deadline = until.share(0.5);
    const SearchResult r = annealer.refine(
        {levels.back()->problem, *levels.back()->router, coarseObjective, coarsest, task.seed},
        current);
    add(r);
    timeLimited |= r.stopped == "time-limit";
    current = r.best;
  }
  SearchResult finest;
  for (std::size_t l = levels.size(); l-- > 0;) {
    const bool job = l == 0;
    const Network& fineRouter = job ? task.router : *levels[l - 1]->router;
    const Problem& fineProblem = job ? task.problem : levels[l - 1]->problem;
    current = prolongMapping(*levels[l], fineRouter, fineProblem.tasks, current);
    Schedule cold = task.schedule;
    cold.t0 = std::min(task.schedule.t0, kRefineT0);
    cold.tEnd = std::min(task.schedule.tEnd, cold.t0);
    cold.moves = MoveKind::Local;
    cold.trialsPerTemperature = trialsFor(fineProblem);
    cold.breakTies = job && task.schedule.breakTies;
    if (!job) cold.allocation = Allocation::wholeBox(levels[l - 1]->box.nodeCount);
    if (until.expired()) {  // out of time: the prolonged map as it is
      timeLimited = true;
      continue;
    }
    cold.deadline = until.split(static_cast<int>(l + 1));
    const SearchResult r =
        annealer.refine({fineProblem, fineRouter, job ? task.objective : coarseObjective, cold,
                         task.seed + l, job ? task.progress : nullptr},
                        current);
    add(r);
    timeLimited |= r.stopped == "time-limit";
    current = r.best;
    if (job) finest = r;
  }
  total.best = current;
  // The job's level scored its own result; only a map it had no time for needs scoring.
  total.bestScores = finest.stopped.empty() ? evaluateExact(task.problem, task.router, current)
                                            : finest.bestScores;
  // A level cut by the deadline makes the time limit the search's stop reason (unless the job's
  // own level still reached tac3's lower bound).
  total.stopped = finest.stopped.empty() || (timeLimited && finest.stopped != "lower-bound")
                      ? "time-limit"
                      : finest.stopped;
  total.tieBreakMoves = finest.tieBreakMoves;
  // Never worse than the start (a coarse level may not see what made the start good).
  if (isBetter(startScores, total.bestScores, task.objective)) {
    total.best = start;
    total.bestScores = startScores;
  }
  total.refiner = name();
  total.levels = static_cast<int>(levels.size()) + 1;
  return total;
}

}  // namespace

std::unique_ptr<Refiner> makeMultilevelRefiner() {
  return std::make_unique<MultilevelRefiner>();
}

}  // namespace tac3map
