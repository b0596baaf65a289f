#include "tac3map/search/annealer.hpp"

#include <gtest/gtest.h>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

struct CgSetup {
  Machine machine = testing::fx10();
  Box box;
  Problem problem;
  Network router;
  // engines 1: the paper's model; 0: the machine file's (FX10: four engines, links weigh 4).
  CgSetup(int ranks, const std::string& shape, int engines = 1)
      : box(makeBox(machine, shape)),
        problem(makeCg(ranks, makeModel(machine, engines))),
        router(machine, box) {}
  static Problem makeCg(int ranks, const Model& model) {
    CgOptions o;
    o.ranks = ranks;
    return generateCgProblem(o, model);
  }
};

Schedule shortSchedule() {
  Schedule s;
  s.trialsPerTemperature = 200;
  return s;
}

TEST(Annealer, DefaultScheduleHasThePapersTrialCount) {
  EXPECT_EQ(Schedule{}.totalTrials(), 197u * 2500u);  // 10 * 0.9^k >= 1e-8 for k = 0..196
}

TEST(Annealer, SameSeedSameMappingDifferentSeedDifferentMapping) {
  const CgSetup s(64, "2x2x2x2x3x2");
  const Mapping init = identityMapping(64, s.box);
  for (ObjectiveKind kind : {ObjectiveKind::Tac3, ObjectiveKind::Tahb, ObjectiveKind::RmattO2f}) {
    const auto a = anneal(s.problem, s.router, kind, init, shortSchedule(), 11);
    const auto b = anneal(s.problem, s.router, kind, init, shortSchedule(), 11);
    const auto c = anneal(s.problem, s.router, kind, init, shortSchedule(), 12);
    EXPECT_EQ(a.best.nodeOfTask, b.best.nodeOfTask) << objectiveName(kind);
    EXPECT_EQ(a.trials, b.trials);
    EXPECT_NE(a.best.nodeOfTask, c.best.nodeOfTask) << objectiveName(kind);
  }
}

TEST(Annealer, StaysOnTheAllowedNodesOfANonContiguousAllocation) {
  // 32 tasks on every third node of the whole FX10 (768 nodes): 256 allowed nodes.
  const CgSetup s(32, "4x2x8x2x3x2");
  Schedule schedule;
  schedule.trialsPerTemperature = 200;
  std::vector<int> everyThird;
  for (int node = 0; node < s.box.nodeCount; node += 3) everyThird.push_back(node);
  schedule.allocation = Allocation::ofNodes(everyThird, s.box.nodeCount);
  const Mapping start = schedule.allocation.block(32);
  for (MoveKind moves : {MoveKind::Global, MoveKind::Local}) {
    schedule.moves = moves;
    const SearchResult r = anneal(s.problem, s.router, ObjectiveKind::Tac3, start, schedule, 7);
    checkMapping(r.best, s.box, "result");
    for (int node : r.best.nodeOfTask) EXPECT_EQ(node % 3, 0) << node;
    EXPECT_GT(r.accepted, 0u);
    EXPECT_LE(r.bestScores.tac3ByteCounts,
              evaluateExact(s.problem, s.router, start).tac3ByteCounts);
  }
}

TEST(Annealer, ResultIsAValidMappingNoWorseThanTheStart) {
  const CgSetup s(32, "1x2x2x2x3x2");
  const Mapping init = identityMapping(32, s.box);
  const ExactScores before = evaluateExact(s.problem, s.router, init);
  const auto tac3 = anneal(s.problem, s.router, ObjectiveKind::Tac3, init, shortSchedule(), 1);
  checkMapping(tac3.best, s.box, "result");
  EXPECT_LE(evaluateExact(s.problem, s.router, tac3.best).tac3ByteCounts, before.tac3ByteCounts);
  const auto tahb = anneal(s.problem, s.router, ObjectiveKind::Tahb, init, shortSchedule(), 1);
  checkMapping(tahb.best, s.box, "result");
  EXPECT_LE(evaluateExact(s.problem, s.router, tahb.best).tahbByteHops, before.tahbByteHops);
}

TEST(Annealer, StopsAtTheLowerBoundUnlessToldNotTo) {
  const CgSetup s(64, "2x2x2x2x3x2");
  const Mapping init = identityMapping(64, s.box);
  const auto r = anneal(s.problem, s.router, ObjectiveKind::Tac3, init, Schedule{}, 1);
  EXPECT_EQ(r.stopped, "lower-bound");
  const ExactScores e = evaluateExact(s.problem, s.router, r.best);
  EXPECT_EQ(e.tac3ByteCounts, e.lowerBoundBytes);
  EXPECT_LT(r.trials, Schedule{}.totalTrials());

  Schedule full = shortSchedule();
  full.earlyStop = false;
  const auto all = anneal(s.problem, s.router, ObjectiveKind::Tac3, init, full, 1);
  EXPECT_EQ(all.stopped, "schedule");
  EXPECT_EQ(all.trials, full.totalTrials());
}

// The compact tac3 engine takes the general one's decisions step for step (even when it draws
// the acceptance threshold), so whole searches agree: same best mapping, trials, acceptances;
// in the paper's model and in the machine file's (four engines per node).
TEST(Annealer, BothTac3EnginesTakeTheSameSearch) {
  for (const auto& [ranks, shape] :
       {std::pair{64, "2x2x2x2x3x2"}, std::pair{32, "1x2x2x2x3x2"}, std::pair{16, "2x2x1x2x3x2"}})
    for (int engines : {1, 0}) {
      const CgSetup s(ranks, shape, engines);
      ASSERT_EQ(s.problem.model.nodeLinks(), engines == 0);
      for (bool earlyStop : {true, false})
        for (std::uint64_t seed : {1, 2, 3}) {
          SCOPED_TRACE(std::string(shape) + " engines " + std::to_string(engines) + " seed " +
                       std::to_string(seed));
          Schedule schedule = shortSchedule();
          schedule.earlyStop = earlyStop;
          const Mapping init =
              seed == 1 ? identityMapping(ranks, s.box) : randomMapping(ranks, s.box, seed);
          schedule.tac3Engine = Tac3Engine::General;
          const auto general =
              anneal(s.problem, s.router, ObjectiveKind::Tac3, init, schedule, seed);
          schedule.tac3Engine = Tac3Engine::Compact;
          const auto compact =
              anneal(s.problem, s.router, ObjectiveKind::Tac3, init, schedule, seed);
          EXPECT_EQ(compact.best.nodeOfTask, general.best.nodeOfTask);
          EXPECT_EQ(compact.trials, general.trials);
          EXPECT_EQ(compact.accepted, general.accepted);
          EXPECT_EQ(compact.stopped, general.stopped);
          if (!earlyStop) {
            EXPECT_GT(general.accepted, 0u);  // with early stop a random start may be optimal
          }
        }
    }
}

TEST(Annealer, TimeLimitStopsTheSearch) {
  const CgSetup s(64, "2x2x2x2x3x2");
  Schedule endless;
  endless.trialsPerTemperature = 1u << 30;
  endless.earlyStop = false;
  endless.timeLimit = 0.05;
  const auto r =
      anneal(s.problem, s.router, ObjectiveKind::Tahb, identityMapping(64, s.box), endless, 1);
  EXPECT_EQ(r.stopped, "time-limit");
  EXPECT_LT(r.trials, endless.trialsPerTemperature);
}

TEST(Annealer, ChainsDependOnSeedAndCountNeverOnThreads) {
  const CgSetup s(32, "1x2x2x2x3x2");
  const Mapping init = identityMapping(32, s.box);
  const Schedule schedule = shortSchedule();
  for (ObjectiveKind kind : {ObjectiveKind::Tahb, ObjectiveKind::RmattO2f}) {
    const auto one = annealChains(s.problem, s.router, kind, init, schedule, 5, 5, 1);
    ASSERT_EQ(one.chains.size(), 5u);
    for (int threads : {2, 3, 8}) {
      const auto many = annealChains(s.problem, s.router, kind, init, schedule, 5, 5, threads);
      EXPECT_EQ(many.best, one.best);
      for (std::size_t i = 0; i < 5; ++i)
        EXPECT_EQ(many.chains[i].best.nodeOfTask, one.chains[i].best.nodeOfTask);
    }
    // Chain i is the single run with seed + i, and the winner has the lowest objective.
    for (std::size_t i = 0; i < 5; ++i)
      EXPECT_EQ(one.chains[i].best.nodeOfTask,
                anneal(s.problem, s.router, kind, init, schedule, 5 + i).best.nodeOfTask);
    const auto valueOf = [&](std::size_t i) {
      return objectiveValue(evaluateExact(s.problem, s.router, one.chains[i].best), kind);
    };
    for (std::size_t i = 0; i < 5; ++i) {
      EXPECT_TRUE(valueOf(one.best) <= valueOf(i));
      if (i < one.best) {
        EXPECT_TRUE(valueOf(one.best) < valueOf(i)) << "ties go to the lower index";
      }
    }
  }
  EXPECT_THROW(annealChains(s.problem, s.router, ObjectiveKind::Tac3, init, schedule, 1, 0, 1),
               InputError);
}

TEST(Annealer, BadSchedulesAreErrors) {
  Schedule s;
  s.cooling = 1.0;
  EXPECT_THROW(checkSchedule(s), InputError);
  s = Schedule{};
  s.tEnd = 100;
  EXPECT_THROW(checkSchedule(s), InputError);
  s = Schedule{};
  s.trialsPerTemperature = 0;
  EXPECT_THROW(checkSchedule(s), InputError);
}

}  // namespace
}  // namespace tac3map
