#include "tac3map/model/objective.hpp"

#include <gtest/gtest.h>

#include "tac3map/io/error.hpp"
#include "tac3map/search/objectives.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// A 1D mesh of 4 nodes; tasks 0..3.
class LineOfFour : public ::testing::Test {
 protected:
  ExactScores score(std::vector<std::vector<Communication>> ccs, const Mapping& mapping) const {
    CcsSet sets;
    sets.tasks = 4;
    sets.sets = std::move(ccs);
    return evaluateExact(makeProblem(sets), router_, mapping);
  }
  Mapping identity() const { return identityMapping(4, box_); }

  Machine machine_ = testing::simpleMachine({4}, {false});
  Box box_ = makeBox(machine_, "4");
  Network router_{machine_, box_};
};

// CCS 0: 0->2 and 1->3 (100 bytes each) share link 1->2.  CCS 1: 3->0 (50 bytes) and a
// message of task 2 to itself, which never touches the network.
TEST_F(LineOfFour, HandComputedExample) {
  const ExactScores e = score({{{0, 2, 100}, {1, 3, 100}}, {{3, 0, 50}, {2, 2, 999}}}, identity());
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

TEST_F(LineOfFour, SelfMessagesAreLeftOut) {
  CcsSet sets;
  sets.tasks = 4;
  sets.sets = {{{3, 0, 50}, {2, 2, 999}}};
  EXPECT_EQ(makeProblem(sets).communicationCount(), 1u);
}

TEST_F(LineOfFour, ContentionFreeMappingReachesTheBound) {
  // 0 and 2 on nodes 0,1; 1 and 3 on nodes 2,3: no shared link.
  const ExactScores e = score({{{0, 2, 100}, {1, 3, 100}}}, Mapping{{0, 2, 1, 3}});
  EXPECT_EQ(e.tac3ByteCounts, e.lowerBoundBytes);
  EXPECT_EQ(e.maxLinkMessages, 1);
}

TEST_F(LineOfFour, UnequalSizesUseTheLargestOnTheSharedLink) {
  // 0->2 (300 bytes) and 1->3 (100) share one link: both have coll 2, the cost is 300 * 2.
  const ExactScores e = score({{{0, 2, 300}, {1, 3, 100}}}, identity());
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
