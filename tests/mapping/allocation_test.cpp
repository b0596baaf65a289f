// Allocation (allocation.hpp): placements over the held nodes in their order, fit and
// membership checks, and node lists that are not allocations.
#include "tac3map/mapping/allocation.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

TEST(Allocation, PlacementsUseTheHeldNodesInTheirOrder) {
  const Allocation a = Allocation::ofNodes({7, 2, 5}, 10, 2);
  EXPECT_FALSE(a.isWholeBox());
  EXPECT_EQ(a.nodeCount(), 3);
  EXPECT_EQ(a.slotCount(), 6);
  EXPECT_TRUE(a.holds(2));
  EXPECT_FALSE(a.holds(3));
  const Mapping block = a.block(5);
  EXPECT_EQ(block.nodeOfTask, (std::vector<int>{7, 7, 2, 2, 5}));
  EXPECT_EQ(block.slotOfTask, (std::vector<int>{0, 1, 0, 1, 0}));
  // Round-robin over the first ceil(5 / 2) = 3 held nodes.
  EXPECT_EQ(a.roundRobin(5).nodeOfTask, (std::vector<int>{7, 2, 5, 7, 2}));
  const Mapping random = a.random(6, 3);
  std::set<std::pair<int, int>> slots;
  for (int task = 0; task < 6; ++task) {
    EXPECT_TRUE(a.holds(random.nodeOfTask[task]));
    slots.insert({random.nodeOfTask[task], random.slotOf(task)});
  }
  EXPECT_EQ(slots.size(), 6u);  // every slot once
  EXPECT_EQ(a.random(6, 3).nodeOfTask, random.nodeOfTask);
}

TEST(Allocation, WholeBoxHoldsEveryNode) {
  const Allocation a = Allocation::wholeBox(4);
  EXPECT_TRUE(a.isWholeBox());
  EXPECT_EQ(a.nodeCount(), 4);
  EXPECT_TRUE(a.holds(3));
  EXPECT_EQ(a.block(4).nodeOfTask, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(Allocation::ofNodes({0, 1, 2, 3}, 4).isWholeBox());
  // Every node in another order is still a list: placements follow that order.
  EXPECT_EQ(Allocation::ofNodes({3, 2, 1, 0}, 4).block(2).nodeOfTask, (std::vector<int>{3, 2}));
}

TEST(Allocation, ChecksNameTheSourceAndWhatIsWrong) {
  const Allocation a = Allocation::ofNodes({1, 3}, 6, 2);
  try {
    a.checkFits(5, "nodes.txt");
    FAIL() << "5 tasks fit in 4 slots";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "nodes.txt: 5 tasks do not fit on its 2 nodes (2 per node)");
  }
  EXPECT_NO_THROW(a.checkFits(4, "nodes.txt"));
  EXPECT_THROW(a.block(5), InputError);
  try {
    a.checkHolds(Mapping({1, 2}), "x.map", "nodes.txt");
    FAIL() << "node 2 is not held";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "x.map: task 1 is on a node that is not in nodes.txt");
  }
  EXPECT_THROW(Allocation::ofNodes({1, 1}, 6), InputError);
  EXPECT_THROW(Allocation::ofNodes({6}, 6), InputError);
}

}  // namespace
}  // namespace tac3map
