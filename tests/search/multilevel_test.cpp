// The multilevel search: one coarsening step (search/coarsening.hpp) checked against the
// finer job it came from, mappings moved between levels, the refiner's guarantees (valid,
// never worse than its start, exact scores, deterministic, the same whatever the threads),
// and which refiner a schedule selects.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/search/annealer.hpp"
#include "tac3map/search/coarsening.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// Random sparse CCSs: each task sends to a few random others, sizes from a small set.
Problem randomJob(int tasks, int ccsCount, std::uint64_t seed, const Model& model = {}) {
  Rng rng(seed);
  CcsSet sets;
  sets.tasks = tasks;
  for (int t = 0; t < ccsCount; ++t) {
    sets.sets.emplace_back();
    for (int i = 0; i < tasks; ++i) {
      if (rng.below(3) == 0) continue;
      const int to = (i + 1 + static_cast<int>(rng.below(tasks - 1))) % tasks;
      sets.sets.back().push_back({i, to, 4096u << rng.below(3)});
      sets.sets.back().back().level = t;
    }
  }
  return makeProblem(sets, model);
}

struct Torus {
  Machine machine;
  Box box;
  Network router;
  explicit Torus(const std::vector<int>& shape, const std::string& text)
      : machine(testing::simpleMachine(shape, std::vector<bool>(shape.size(), true))),
        box(makeBox(machine, text)),
        router(machine, box) {}
};

TEST(Coarsening, PairsTasksAndHalvesTheBoxKeepingEveryMessageBetweenPairs) {
  const Torus t({8, 6, 4}, "8x6x4");
  for (std::uint64_t seed : {1, 2, 3}) {
    const Problem fine = randomJob(180, 3, seed);
    const auto level = coarsen(t.router, fine, seed);
    ASSERT_TRUE(level);
    EXPECT_EQ(level->axis, 0);  // the longest even axis
    EXPECT_EQ(level->box.shape, (std::vector<int>{4, 6, 4}));
    EXPECT_LE(static_cast<int>(level->members.size()), level->box.nodeCount);
    // Every task in exactly one coarse task.
    std::vector<int> taskOf(fine.tasks, -1);
    for (std::size_t c = 0; c < level->members.size(); ++c)
      for (int member : level->members[c]) {
        if (member < 0) continue;
        ASSERT_EQ(taskOf[member], -1);
        taskOf[member] = static_cast<int>(c);
      }
    for (int v = 0; v < fine.tasks; ++v) ASSERT_GE(taskOf[v], 0);
    // The coarse messages are the fine ones between different coarse tasks, bytes unchanged.
    std::multiset<std::tuple<int, int, std::uint64_t>> expected, got;
    for (std::size_t c = 0; c < fine.realCommunications; ++c)
      if (taskOf[fine.src[c]] != taskOf[fine.dst[c]])
        expected.insert({taskOf[fine.src[c]], taskOf[fine.dst[c]], fine.bytes[c]});
    const Problem& coarse = level->problem;
    for (std::size_t c = 0; c < coarse.realCommunications; ++c)
      got.insert({coarse.src[c], coarse.dst[c], coarse.bytes[c]});
    EXPECT_EQ(got, expected);
    // Heavy edges: a pair the matching made exchanges bytes unless it was made for room.
    int talking = 0;
    for (const auto& m : level->members) talking += m[1] >= 0;
    EXPECT_GT(talking, fine.tasks / 4);
    // The same seed, the same level.
    EXPECT_EQ(coarsen(t.router, fine, seed)->members, level->members);
  }
  // A full box: tasks are paired until they fit half the nodes.
  const Problem full = randomJob(192, 2, 7);
  const auto level = coarsen(t.router, full, 7);
  ASSERT_TRUE(level);
  EXPECT_EQ(static_cast<int>(level->members.size()), 96);
  // No even axis: no coarser level.
  const Torus odd({5, 3}, "5x3");
  EXPECT_FALSE(coarsen(odd.router, randomJob(10, 1, 1), 1));
}

TEST(Coarsening, RestrictAndProlongGiveValidMappingsOfNeighbouringPairs) {
  const Torus t({8, 6, 4}, "8x6x4");
  const Problem fine = randomJob(150, 2, 4);
  const auto level = coarsen(t.router, fine, 4);
  ASSERT_TRUE(level);
  for (std::uint64_t seed : {1, 2, 3}) {
    const Mapping start = randomMapping(fine.tasks, t.box, seed);
    const Mapping coarse = restrictMapping(*level, t.router, start);
    checkMapping(coarse, level->box, "restricted");
    const Mapping back = prolongMapping(*level, t.router, fine.tasks, coarse);
    checkMapping(back, t.box, "prolonged");
    for (const auto& m : level->members) {
      if (m[1] >= 0) {
        EXPECT_EQ(t.router.hops(back.nodeOfTask[m[0]], back.nodeOfTask[m[1]]), 1);
      }
    }
    // A coarse task lands on the coarse node of its first task unless another took it.
    int kept = 0;
    for (std::size_t c = 0; c < level->members.size(); ++c)
      kept += t.router.coordinate(start.nodeOfTask[level->members[c][0]], 0) / 2 ==
              level->router->coordinate(coarse.nodeOfTask[c], 0);
    EXPECT_GT(kept, static_cast<int>(level->members.size()) / 2);
  }
}

Schedule shortSchedule(const std::string& refiner, const Box& box) {
  Schedule s;
  s.t0 = 1;
  s.tEnd = 1e-4;
  s.cooling = 0.7;
  s.trialsPerTemperature = 400;
  s.refiner = refiner;
  s.allocation = Allocation::wholeBox(box.nodeCount);
  return s;
}

TEST(Multilevel, RefinesToAValidMapNeverWorseThanItsStartAndDeterministic) {
  const Torus t({16, 8, 8}, "16x8x8");  // 1,024 nodes: two levels above 256
  for (ObjectiveKind objective : {ObjectiveKind::Tac3, ObjectiveKind::Tahb}) {
    const Problem p = randomJob(900, 3, 11);
    const Mapping start = randomMapping(p.tasks, t.box, 5);
    const Schedule s = shortSchedule("multilevel", t.box);
    const SearchResult r = anneal(p, t.router, objective, start, s, 3);
    EXPECT_EQ(r.refiner, "multilevel");
    EXPECT_EQ(r.levels, 3);
    checkMapping(r.best, t.box, "multilevel");
    const ExactScores exact = evaluateExact(p, t.router, r.best);
    EXPECT_EQ(objectiveValue(exact, objective), objectiveValue(r.bestScores, objective));
    const ExactScores before = evaluateExact(p, t.router, start);
    EXPECT_FALSE(isBetter(before, r.bestScores, objective));
    EXPECT_LT(objectiveValue(r.bestScores, objective), objectiveValue(before, objective));
    EXPECT_EQ(anneal(p, t.router, objective, start, s, 3).best.nodeOfTask, r.best.nodeOfTask);
    // Chains: the same winner with one thread or two.
    const ChainsResult one = annealChains(p, t.router, objective, start, s, 3, 2, 1);
    const ChainsResult two = annealChains(p, t.router, objective, start, s, 3, 2, 2);
    EXPECT_EQ(one.chains[one.best].best.nodeOfTask, two.chains[two.best].best.nodeOfTask);
  }
}

// A box of at most 256 nodes is not coarsened: multilevel is the annealer itself.
TEST(Multilevel, OnASmallBoxIsTheAnnealer) {
  const Torus t({8, 8, 4}, "8x8x4");
  const Problem p = randomJob(200, 3, 5);
  const Mapping start = randomMapping(p.tasks, t.box, 2);
  const SearchResult multilevel =
      anneal(p, t.router, ObjectiveKind::Tac3, start, shortSchedule("multilevel", t.box), 4);
  const SearchResult annealing =
      anneal(p, t.router, ObjectiveKind::Tac3, start, shortSchedule("annealing", t.box), 4);
  EXPECT_EQ(multilevel.best.nodeOfTask, annealing.best.nodeOfTask);
  EXPECT_EQ(multilevel.trials, annealing.trials);
  EXPECT_GT(multilevel.trials, 0u);
}

// A start at tac3's lower bound comes back unchanged, without a search.
TEST(Multilevel, KeepsAStartAtTheLowerBound) {
  const Torus t({16, 8, 8}, "16x8x8");
  CcsSet sets;
  sets.tasks = 1024;
  sets.sets.emplace_back();
  for (int i = 0; i < 1024; ++i) sets.sets[0].push_back({i, t.router.neighbour(i, 0, true), 8192});
  const Problem p = makeProblem(sets);
  Mapping identity(std::vector<int>(1024));
  for (int i = 0; i < 1024; ++i) identity.nodeOfTask[i] = i;
  const SearchResult r =
      anneal(p, t.router, ObjectiveKind::Tac3, identity, shortSchedule("multilevel", t.box), 1);
  EXPECT_EQ(r.best.nodeOfTask, identity.nodeOfTask);
  EXPECT_EQ(r.trials, 0u);
  EXPECT_EQ(r.stopped, "lower-bound");
}

TEST(Refiners, AutoPicksMultilevelOnLargeBoxesAndNamesAreChecked) {
  const Torus small({8, 8, 4}, "8x8x4");
  const Torus large({16, 16, 16}, "16x16x16");  // 4,096 nodes
  const Problem p = randomJob(200, 2, 3);
  const Schedule autoSmall = shortSchedule("auto", small.box);
  const Schedule autoLarge = shortSchedule("auto", large.box);
  EXPECT_STREQ(refinerFor({p, small.router, ObjectiveKind::Tac3, autoSmall, 1}).name(),
               "annealing");
  EXPECT_STREQ(refinerFor({p, large.router, ObjectiveKind::Tac3, autoLarge, 1}).name(),
               "multilevel");
  // The threshold is the objective's: tahb anneals on boxes of thousands of nodes.
  ASSERT_GT(objectiveSpec(ObjectiveKind::Tahb).defaults.multilevelAbove, large.box.nodeCount);
  EXPECT_STREQ(refinerFor({p, large.router, ObjectiveKind::Tahb, autoLarge, 1}).name(),
               "annealing");
  // A tac3 search of more ranks than coldAbove starts cold and anneals its start on one level,
  // on any box; one rank fewer is multilevel's again.
  const SearchDefaults& tac3 = objectiveSpec(ObjectiveKind::Tac3).defaults;
  ASSERT_GT(tac3.coldAbove, 0);
  const Torus huge({16, 16, 36}, "16x16x36");  // 9,216 nodes
  ASSERT_GT(huge.box.nodeCount, tac3.coldAbove);
  const Schedule autoHuge = shortSchedule("auto", huge.box);
  const Problem many = randomJob(tac3.coldAbove + 1, 2, 3);
  const Problem fewer = randomJob(tac3.coldAbove, 2, 3);
  EXPECT_STREQ(refinerFor({many, huge.router, ObjectiveKind::Tac3, autoHuge, 1}).name(),
               "annealing");
  EXPECT_STREQ(refinerFor({fewer, huge.router, ObjectiveKind::Tac3, autoHuge, 1}).name(),
               "multilevel");
  EXPECT_LT(tac3.t0For(tac3.coldAbove + 1), tac3.t0);
  // ... and its tie-break puts shorter routes before fewer shared pairs (tie_break.hpp).
  EXPECT_EQ(tac3.tieOrder(tac3.coldAbove + 1), TieOrder::HopsFirst);
  EXPECT_EQ(tac3.tieOrder(tac3.coldAbove), TieOrder::PairsFirst);
  // Several ranks per node: multilevel does not apply; auto falls back, naming it is an error.
  Model two;
  two.ranksPerNode = 2;
  const Problem k2 = randomJob(200, 2, 3, two);
  Schedule k2Auto = shortSchedule("auto", large.box);
  k2Auto.allocation = Allocation::wholeBox(large.box.nodeCount, 2);
  EXPECT_STREQ(refinerFor({k2, large.router, ObjectiveKind::Tac3, k2Auto, 1}).name(), "annealing");
  Schedule k2Multi = k2Auto;
  k2Multi.refiner = "multilevel";
  EXPECT_THROW(refinerFor({k2, large.router, ObjectiveKind::Tac3, k2Multi, 1}), InputError);
  Schedule typo = autoSmall;
  typo.refiner = "multilevle";
  EXPECT_THROW(checkSchedule(typo), InputError);
}

}  // namespace
}  // namespace tac3map
