// distanceTorusOf against the router: on every box the hops between any two of its nodes on the
// torus it gives are Network::hops, and its cells are distinct.
#include "tac3map/network/target_torus.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tac3map/network/network.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

int torusHops(const DistanceTorus& t, int a, int b) {
  int hops = 0;
  for (const int n : t.extents) {
    const int d = std::abs(a % n - b % n);
    hops += std::min(d, n - d);
    a /= n;
    b /= n;
  }
  return hops;
}

void expectExact(const Machine& machine, const std::string& shape, std::size_t axes) {
  const Box box = makeBox(machine, shape);
  const Network router(machine, box);
  const std::optional<DistanceTorus> t = distanceTorusOf(machine, box, 5);
  ASSERT_TRUE(t) << shape;
  EXPECT_EQ(t->extents.size(), axes) << shape;
  ASSERT_EQ(t->cellOfNode.size(), static_cast<std::size_t>(box.nodeCount));
  EXPECT_EQ(std::set<int>(t->cellOfNode.begin(), t->cellOfNode.end()).size(), t->cellOfNode.size())
      << shape;
  for (int a = 0; a < box.nodeCount; ++a)
    for (int b = 0; b < box.nodeCount; ++b)
      ASSERT_EQ(torusHops(*t, t->cellOfNode[a], t->cellOfNode[b]), router.hops(a, b))
          << shape << ": nodes " << a << " and " << b;
}

TEST(DistanceTorus, ItsHopsAreTheNetworksOnEveryBox) {
  const Machine fx10 = testing::fx10();
  // Tofu: A and C (two nodes each) become one ring of four; B wraps when whole.
  expectExact(fx10, "2x2x2x2x3x2", 5);
  expectExact(fx10, "1x2x4x2x3x2", 5);
  expectExact(fx10, "4x1x3x2x1x2", 4);
  expectExact(fx10, "3x2x1x2x2x2", 5);  // B cut: open
  // Open and wrapping axes of every length; one-node axes left out.
  const Machine mixed = testing::simpleMachine({6, 5, 4, 1}, {true, false, true, true});
  expectExact(mixed, "6x5x4x1", 3);
  expectExact(mixed, "5x5x2x1", 3);  // X cut: open
  expectExact(mixed, "6x1x4x1", 2);
}

TEST(DistanceTorus, AbsentWhereNoFiveAxesHoldTheBox) {
  const Machine wide = testing::simpleMachine({3, 3, 3, 3, 3, 3}, std::vector<bool>(6, true));
  EXPECT_FALSE(distanceTorusOf(wide, makeBox(wide, "3x3x3x3x3x3"), 5));
  EXPECT_TRUE(distanceTorusOf(wide, makeBox(wide, "3x3x3x3x3x1"), 5));
  EXPECT_TRUE(distanceTorusOf(wide, makeBox(wide, "3x3x3x3x3x3"), 6));
}

}  // namespace
}  // namespace tac3map
