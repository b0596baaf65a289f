#include "tac3map/objective.hpp"

#include <gtest/gtest.h>

#include "tac3map/error.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// A 1D mesh of 4 nodes, identity mapping.
// CCS 0: 0->2 and 1->3 (100 bytes each) share link 1->2.  CCS 1: 3->0 (50 bytes) and a
// message of task 2 to itself, which never touches the network.
TEST(Objective, HandComputedExample) {
  const Machine m = testing::simpleMachine({4}, {false});
  const Box box = makeBox(m, "4");
  const Router router(m, box);
  CcsSet sets;
  sets.tasks = 4;
  sets.sets = {{{0, 2, 100}, {1, 3, 100}}, {{3, 0, 50}, {2, 2, 999}}};
  const Problem p = makeProblem(sets);
  ASSERT_EQ(p.communicationCount(), 3u);
  const ExactScores e = evaluateExact(p, router, identityMapping(4, box));
  EXPECT_EQ(e.tac3ByteCounts, 100u * 2 + 50u);
  EXPECT_EQ(e.lowerBoundBytes, 100u + 50u);
  EXPECT_EQ(e.tahbByteHops, 100u * 2 + 100u * 2 + 50u * 3);
  EXPECT_EQ(e.maxLinkBytes, 200u);
  EXPECT_EQ(e.maxLinkMessages, 2);
  const Scores s = toScores(e, 1e9);
  EXPECT_DOUBLE_EQ(s.tac3, 250e-9);
  EXPECT_DOUBLE_EQ(s.tac3LowerBound, 150e-9);
  EXPECT_DOUBLE_EQ(s.rmattO2f, 550.0 * 200.0);
  EXPECT_DOUBLE_EQ(s.avgHops, 550.0 / 250.0);
}

TEST(Objective, ContentionFreeMappingReachesTheBound) {
  const Machine m = testing::simpleMachine({4}, {false});
  const Box box = makeBox(m, "4");
  const Router router(m, box);
  CcsSet sets;
  sets.tasks = 4;
  sets.sets = {{{0, 2, 100}, {1, 3, 100}}};
  // 0 and 2 on nodes 0,1; 1 and 3 on nodes 2,3: no shared link.
  const ExactScores e = evaluateExact(makeProblem(sets), router, Mapping{{0, 2, 1, 3}});
  EXPECT_EQ(e.tac3ByteCounts, e.lowerBoundBytes);
  EXPECT_EQ(e.maxLinkMessages, 1);
}

TEST(Objective, UnequalSizesUseTheLargestOnTheSharedLink) {
  const Machine m = testing::simpleMachine({4}, {false});
  const Box box = makeBox(m, "4");
  const Router router(m, box);
  CcsSet sets;
  sets.tasks = 4;
  // 0->2 (300 bytes) and 1->3 (100) share one link: both have coll 2, the cost is 300 * 2.
  sets.sets = {{{0, 2, 300}, {1, 3, 100}}};
  const ExactScores e = evaluateExact(makeProblem(sets), router, identityMapping(4, box));
  EXPECT_EQ(e.tac3ByteCounts, 600u);
  EXPECT_EQ(e.lowerBoundBytes, 300u);
}

TEST(Objective, NamesParse) {
  EXPECT_EQ(parseObjective("tac3"), ObjectiveKind::Tac3);
  EXPECT_EQ(parseObjective("rmatt-o2f"), ObjectiveKind::RmattO2f);
  EXPECT_STREQ(objectiveName(ObjectiveKind::Tahb), "tahb");
  EXPECT_THROW(parseObjective("hops"), InputError);
}

}  // namespace
}  // namespace tac3map
