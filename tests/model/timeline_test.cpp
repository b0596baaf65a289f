// The timeline model (timeline.hpp): with a barrier between every two sets it is tac3; on any
// trace it equals a plain walk of every set of the list kept apart (ranks' clocks materialised
// at each barrier); skipping iterations is exact; it never exceeds tac3.
#include "tac3map/model/timeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "tac3map/base/random.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/model/predict.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/model/profile.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

std::vector<Communication> randomSet(int tasks, int level, Rng& rng) {
  const std::uint64_t sizes[] = {8, 1024, 65536, 1 << 20};
  std::vector<Communication> set;
  const int messages = 1 + static_cast<int>(rng.below(2 * tasks));
  for (int i = 0; i < messages; ++i) {
    const int src = static_cast<int>(rng.below(tasks));
    const int dst = static_cast<int>(rng.below(tasks));  // self messages too
    set.push_back({src, dst, sizes[rng.below(4)]});
    set.back().level = level;
    set.back().eager = set.back().bytes <= 1024;  // as an eager limit of 1025 bytes makes them
  }
  return set;
}

// A prologue, an iteration of `length` distinct sets repeated `repeats` times, an epilogue;
// levels in order and a barrier before each level in `barrierEvery` (0: none, 1: all).
CcsSet periodicSets(int tasks, int length, int repeats, int barrierEvery, Rng& rng) {
  CcsSet sets;
  sets.tasks = tasks;
  std::vector<std::vector<Communication>> iteration;
  for (int i = 0; i < length; ++i) iteration.push_back(randomSet(tasks, 0, rng));
  const auto add = [&](std::vector<Communication> set) {
    const int level = static_cast<int>(sets.sets.size());
    for (Communication& c : set) c.level = level;
    if (level > 0 && barrierEvery > 0 && level % barrierEvery == 0)
      sets.barrierLevels.push_back(level);
    sets.sets.push_back(std::move(set));
  };
  for (int i = 0; i < 3; ++i) add(randomSet(tasks, 0, rng));
  for (int r = 0; r < repeats; ++r)
    for (const auto& set : iteration) add(set);
  for (int i = 0; i < 2; ++i) add(randomSet(tasks, 0, rng));
  return sets;
}

// The plain reference: every set of the list kept apart, each rank's clock a number, a
// barrier raising every clock to the latest, an eager message moving its receiver's only.
std::uint64_t plainTimeline(const CcsSet& sets, const Model& model, const Network& router,
                            const Mapping& mapping) {
  const Problem apart = makeProblem(sets, model, false);
  const std::vector<std::uint64_t> duration = messageDurations(apart, router, mapping);
  std::vector<std::uint64_t> clock(sets.tasks, 0);
  std::size_t c = 0;  // apart's communications are the sets' own, in order
  for (std::size_t t = 0; t < sets.sets.size(); ++t) {
    if (t > 0 && sets.barrierBetween(t - 1)) {
      const std::uint64_t latest = *std::max_element(clock.begin(), clock.end());
      std::fill(clock.begin(), clock.end(), latest);
    }
    std::vector<std::uint64_t> next = clock;
    for (const Communication& m : sets.sets[t]) {
      if (m.src == m.dst) continue;
      const std::uint64_t end = std::max(clock[m.src], clock[m.dst]) + duration[c++];
      if (!m.eager) next[m.src] = std::max(next[m.src], end);  // an eager sender goes on
      next[m.dst] = std::max(next[m.dst], end);
    }
    clock = next;
  }
  EXPECT_EQ(c, apart.realCommunications);
  return *std::max_element(clock.begin(), clock.end());
}

struct Case {
  const char* name;
  int engines, ranksPerNode;
};

class Timeline : public ::testing::TestWithParam<Case> {
 protected:
  Timeline() : fx10_(testing::fx10()), box_(makeBox(fx10_, "2x2x2x2x3x1")), router_(fx10_, box_) {}
  Model model() const {
    Machine m = fx10_;
    m.injectionEngines = GetParam().engines;
    return makeModel(m, 0, GetParam().ranksPerNode);
  }
  int tasks() const { return 48 * GetParam().ranksPerNode; }
  Mapping mapping(Rng& rng) const {
    return randomMapping(tasks(), box_, rng.below(1u << 30), GetParam().ranksPerNode);
  }
  Machine fx10_;
  Box box_;
  Network router_;
};

TEST_P(Timeline, WithABarrierBetweenEverySetItIsTac3) {
  Rng rng(7);
  for (int draw = 0; draw < 6; ++draw) {
    const CcsSet sets = periodicSets(tasks(), 1 + draw, 5, 1, rng);
    const Problem problem = makeProblem(sets, model());
    const TimelinePlan plan(problem);
    const Mapping m = mapping(rng);
    EXPECT_EQ(timelineExact(problem, plan, router_, m),
              evaluateExact(problem, router_, m).tac3ByteCounts);
  }
}

TEST_P(Timeline, EqualsAPlainWalkOfTheListKeptApartAndNeverExceedsTac3) {
  Rng rng(11);
  int belowTac3 = 0;
  for (int draw = 0; draw < 12; ++draw) {
    const int barrierEvery = draw % 3 == 0 ? 0 : draw % 3 == 1 ? 4 : 3;
    const CcsSet sets = periodicSets(tasks(), 1 + draw % 5, 2 + draw, barrierEvery, rng);
    const Problem problem = makeProblem(sets, model());
    const TimelinePlan plan(problem);
    const Mapping m = mapping(rng);
    const std::uint64_t timeline = timelineExact(problem, plan, router_, m);
    EXPECT_EQ(timeline, plainTimeline(sets, model(), router_, m)) << draw;
    const std::uint64_t tac3 = evaluateExact(problem, router_, m).tac3ByteCounts;
    EXPECT_LE(timeline, tac3);
    belowTac3 += timeline < tac3;
  }
  EXPECT_GT(belowTac3, 0);  // without barriers ranks run ahead
}

TEST_P(Timeline, SkippingIterationsIsExact) {
  Rng rng(13);
  int skipped = 0;
  for (int draw = 0; draw < 12; ++draw) {
    const CcsSet sets = periodicSets(tasks(), 1 + draw % 4, 20 + draw, draw % 2 ? 0 : 2, rng);
    const Problem problem = makeProblem(sets, model());
    const TimelinePlan plan(problem);
    EXPECT_GE(plan.period().repeats, 3u);
    const std::vector<std::uint64_t> duration = messageDurations(problem, router_, mapping(rng));
    EXPECT_EQ(plan.length(duration), plan.walkAll(duration));
    skipped += plan.period().repeats > 0;
  }
  EXPECT_GT(skipped, 0);
}

// predict walks the same timeline with its message times: the sum over CCSs with a barrier
// between every two sets, at most that without, and the total is the timeline plus local work.
TEST_P(Timeline, PredictWalksTheSameTimeline) {
  Rng rng(17);
  const TimeModel message({{8, 1e-6}, {1 << 20, 1e-6 + (1 << 20) / fx10_.linkBandwidth}},
                          ModelKind::Linear, "test");
  const PredictModel pm{message, message, 1e-7, model()};
  int below = 0;
  for (int barrierEvery : {1, 0, 1, 0}) {
    const CcsSet sets = periodicSets(tasks(), 3, 6, barrierEvery, rng);
    const Problem problem = makeProblem(sets, model());
    const Prediction p = predict(problem, router_, mapping(rng), pm, 0.5);
    if (barrierEvery == 1) {
      EXPECT_NEAR(p.timeline, p.communication, 1e-12 * p.communication);
    }
    EXPECT_LE(p.timeline, p.communication * (1 + 1e-12));
    below += p.timeline < p.communication * (1 - 1e-9);
    ASSERT_TRUE(p.flow.has_value());
    EXPECT_DOUBLE_EQ(p.total, *p.flow + 0.5);
  }
  EXPECT_GT(below, 0);
}

INSTANTIATE_TEST_SUITE_P(Models, Timeline,
                         ::testing::Values(Case{"paper", 1, 1}, Case{"engines", 4, 1},
                                           Case{"packed", 1, 2}, Case{"packedEngines", 4, 4}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace tac3map
