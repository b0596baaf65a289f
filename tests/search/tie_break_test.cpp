// The tie-break descent (tie_break.hpp) against a plain reference: from its result, no single
// move that does not lengthen routes lowers the key (objective, shared pairs, byte-hops) as
// the reference evaluator computes it from scratch; the key never rises from the start; both
// tac3 engines end at the same mapping. Random problems with engines, several ranks per node
// and phase overlap.
#include "tac3map/search/tie_break.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/search/annealer.hpp"
#include "tac3map/search/incremental.hpp"
#include "tac3map/search/objectives.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

constexpr std::uint64_t kUnlimited = ~std::uint64_t{0};

Mapping moved(const Problem& problem, int nodes, const Mapping& from, int task, int position) {
  Placement placement(problem, nodes, from);
  placement.apply(placement.makeMove(task, position));
  return placement.mapping();
}

// CG-64 (generateCgProblem) on a box of a machine.
struct Cg64 {
  Machine machine;
  Box box;
  Network router;
  Problem problem;
  // engines 1: the paper's model; 0: the machine file's.
  Cg64(Machine m, const std::string& shape, int engines = 1)
      : machine(std::move(m)), box(makeBox(machine, shape)), router(machine, box) {
    CgOptions cg;
    cg.ranks = 64;
    problem = generateCgProblem(cg, makeModel(machine, engines));
  }
};

struct Case {
  int engines, k;
  Overlap overlap;
};

// The key as the reference computes it: isBetter's for PairsFirst; (tac3, byte-hops, pairs)
// for HopsFirst, written out here from the exact scores.
bool beats(const ExactScores& a, const ExactScores& b, TieOrder order) {
  if (order == TieOrder::PairsFirst) return isBetter(a, b, ObjectiveKind::Tac3);
  if (a.tac3ByteCounts != b.tac3ByteCounts) return a.tac3ByteCounts < b.tac3ByteCounts;
  if (a.tahbByteHops != b.tahbByteHops) return a.tahbByteHops < b.tahbByteHops;
  return a.sharedPairs < b.sharedPairs;
}

TEST(TieBreak, NoSingleMoveImprovesTheKeyAsTheReferenceComputesIt) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "1x2x2x2x3x1");  // 24 nodes: every position is a candidate
  const Network router(fx10, box);
  Rng rng(5);
  for (const TieOrder order : {TieOrder::PairsFirst, TieOrder::HopsFirst})
    for (const Case c :
         {Case{1, 1, Overlap::None}, Case{4, 1, Overlap::None}, Case{4, 2, Overlap::None},
          Case{1, 1, Overlap::Adjacent}, Case{4, 2, Overlap::Adjacent}}) {
      const Model model = makeModel(fx10, c.engines, c.k, c.overlap);
      const int tasks = 20 * c.k;
      const Problem problem = testing::randomModelProblem(tasks, 4, rng, model);
      // Under the sanitizers, and for the order only searches at scale use, one start per case
      // (every candidate move is still evaluated).
      const int draws = testing::underSanitizers() || order == TieOrder::HopsFirst ? 1 : 3;
      for (int draw = 0; draw < draws; ++draw) {
        SCOPED_TRACE(std::string(order == TieOrder::PairsFirst ? "pairs" : "hops") +
                     " first, engines " + std::to_string(c.engines) + " K " + std::to_string(c.k) +
                     " overlap " + overlapName(c.overlap) + " draw " + std::to_string(draw));
        const Mapping start = randomMapping(tasks, box, rng.below(1u << 30), c.k);
        Schedule schedule;
        const TieBreakResult result =
            breakTac3Ties(problem, router, start, schedule, kUnlimited, {}, order);
        checkMapping(result.mapping, box, "tie-break", c.k);
        const ExactScores before = evaluateExact(problem, router, start);
        const ExactScores after = evaluateExact(problem, router, result.mapping);
        EXPECT_FALSE(beats(before, after, order));
        EXPECT_GT(result.moves, 0u);  // a random start is never a local minimum here
        const int positions = box.nodeCount * c.k;
        for (int task = 0; task < tasks; ++task)
          for (int position = 0; position < positions; ++position) {
            if (position / c.k == result.mapping.nodeOfTask[task]) continue;
            const Mapping m = moved(problem, box.nodeCount, result.mapping, task, position);
            const ExactScores s = evaluateExact(problem, router, m);
            if (s.tahbByteHops > after.tahbByteHops) continue;  // never tried: longer routes
            ASSERT_FALSE(beats(s, after, order)) << "task " << task << " to position " << position;
          }
      }
    }
}

// The order reaches the descent (the two keys lead the same starts to different maps, each a
// local minimum of its own key: the test above); HopsFirst's budget grows with the problem.
TEST(TieBreak, TheOrderChangesTheDescentAndHopsFirstGetsMoreWork) {
  const Cg64 s(testing::fx10(), "2x2x2x2x3x2", 0);
  for (std::uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Mapping start = randomMapping(64, s.box, seed);
    const TieBreakResult pairs =
        breakTac3Ties(s.problem, s.router, start, Schedule{}, kUnlimited, {}, TieOrder::PairsFirst);
    const TieBreakResult hops =
        breakTac3Ties(s.problem, s.router, start, Schedule{}, kUnlimited, {}, TieOrder::HopsFirst);
    EXPECT_NE(pairs.mapping.nodeOfTask, hops.mapping.nodeOfTask);
  }
  // The budget reads only the task and communication counts.
  Problem large;
  large.tasks = 20000;
  large.src.assign(143272, 0);  // the 20,000-rank mesh's communications
  const std::uint64_t trials = 202500;
  const std::uint64_t searchWork = tieBreakBudget(large, trials, TieOrder::PairsFirst);
  EXPECT_EQ(searchWork,
            std::max(kTieBreakMinWork, static_cast<std::uint64_t>(trials * 2.0 * 143272 / 20000)));
  EXPECT_EQ(tieBreakBudget(large, trials, TieOrder::HopsFirst),
            kHopsFirstWorkPerCommunication * 143272);
  EXPECT_GT(tieBreakBudget(large, trials, TieOrder::HopsFirst), 4 * searchWork);
  EXPECT_EQ(tieBreakBudget(s.problem, 0, TieOrder::HopsFirst), kTieBreakMinWork);
}

TEST(TieBreak, BothEnginesEndAtTheSameMapping) {
  for (int engines : {1, 0}) {  // the paper's model, and FX10's four engines
    const Cg64 s(testing::fx10(), "2x2x2x2x3x2", engines);
    const Box& box = s.box;
    const Network& router = s.router;
    const Problem& problem = s.problem;
    for (std::uint64_t seed : {1, 2, 3}) {
      SCOPED_TRACE("engines " + std::to_string(engines) + " seed " + std::to_string(seed));
      const Mapping start = randomMapping(64, box, seed);
      Schedule schedule;
      schedule.tac3Engine = Tac3Engine::General;
      const TieBreakResult general = breakTac3Ties(problem, router, start, schedule, kUnlimited);
      schedule.tac3Engine = Tac3Engine::Compact;
      const TieBreakResult compact = breakTac3Ties(problem, router, start, schedule, kUnlimited);
      EXPECT_EQ(general.mapping.nodeOfTask, compact.mapping.nodeOfTask);
      EXPECT_EQ(general.moves, compact.moves);
      EXPECT_EQ(general.trials, compact.trials);
    }
  }
}

// The case: a CG-64 search that stops at the lower bound keeps its tac3 and, with the
// tie-break, takes shorter routes than without it.
TEST(TieBreak, SearchAtTheBoundEndsWithShorterRoutes) {
  const Cg64 s(testing::fx10(), "2x2x2x2x3x2");
  const Box& box = s.box;
  const Network& router = s.router;
  const Problem& problem = s.problem;
  Schedule schedule;
  const SearchResult with =
      anneal(problem, router, ObjectiveKind::Tac3, identityMapping(64, box), schedule, 1);
  schedule.breakTies = false;
  const SearchResult without =
      anneal(problem, router, ObjectiveKind::Tac3, identityMapping(64, box), schedule, 1);
  EXPECT_EQ(without.stopped, "lower-bound");
  EXPECT_EQ(with.bestScores.tac3ByteCounts, without.bestScores.tac3ByteCounts);
  EXPECT_LT(with.bestScores.tahbByteHops, without.bestScores.tahbByteHops);
  EXPECT_GT(with.tieBreakMoves, 0u);
  EXPECT_EQ(without.tieBreakMoves, 0u);
}

// Allocations of more than kTieBreakAllPositions slots try the nodes near a task's partners
// only: far fewer candidates than every position (which this test would see in `examined`);
// the key still never rises and the result stays on the allocation.
TEST(TieBreak, LocalCandidatesOnALargeAllocation) {
  const Cg64 s(loadMachine(testing::sourcePath("topologies/k-computer.json")), "4x4x6x2x3x2");
  const Box& box = s.box;
  const Network& router = s.router;
  const Problem& problem = s.problem;
  Schedule schedule;
  std::vector<int> everyOther;
  for (int node = 0; node < box.nodeCount; node += 2) everyOther.push_back(node);
  ASSERT_GT(static_cast<int>(everyOther.size()), kTieBreakAllPositions);
  schedule.allocation = Allocation::ofNodes(everyOther, box.nodeCount);
  const Mapping start = schedule.allocation.block(64);
  const TieBreakResult result = breakTac3Ties(problem, router, start, schedule, kUnlimited);
  EXPECT_GT(result.moves, 0u);
  // Every position would be 64 tasks x 575 other nodes per pass; near the partners (at most a
  // few partners, each node and its 12 neighbours) it is under a fifth of that.
  EXPECT_LT(result.examined, static_cast<std::uint64_t>(result.passes) * 64 * 575 / 5);
  for (int node : result.mapping.nodeOfTask) EXPECT_EQ(node % 2, 0);
  EXPECT_FALSE(isBetter(evaluateExact(problem, router, start),
                        evaluateExact(problem, router, result.mapping), ObjectiveKind::Tac3));
}

// The budget bounds the work whatever the pattern: the descent stops once it has visited that
// many communications (at most one candidate's worth more), with the key never above the
// start's.
TEST(TieBreak, StopsWhenItsBudgetIsSpent) {
  const Cg64 s(testing::fx10(), "2x2x2x2x3x2");
  const Box& box = s.box;
  const Network& router = s.router;
  const Problem& problem = s.problem;
  const Mapping start = randomMapping(64, box, 9);
  const TieBreakResult full = breakTac3Ties(problem, router, start, Schedule{}, kUnlimited);
  ASSERT_GT(full.work, 10000u);
  const TieBreakResult cut = breakTac3Ties(problem, router, start, Schedule{}, 10000);
  EXPECT_GE(cut.work, 10000u);
  // One candidate costs its two tasks' communications, once for hops and once for the engine.
  std::vector<std::uint64_t> incident(64, 0);
  for (std::size_t c = 0; c < problem.communicationCount(); ++c)
    ++incident[problem.src[c]], ++incident[problem.dst[c]];
  const std::uint64_t most = *std::max_element(incident.begin(), incident.end());
  EXPECT_LT(cut.work, 10000u + 4 * most);
  EXPECT_LT(cut.examined, full.examined);
  EXPECT_FALSE(isBetter(evaluateExact(problem, router, start),
                        evaluateExact(problem, router, cut.mapping), ObjectiveKind::Tac3));
}

}  // namespace
}  // namespace tac3map
