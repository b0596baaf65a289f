#include "tac3map/network/network.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "tac3map/base/random.hpp"
#include "tac3map/io/number_text.hpp"
#include "tac3map/network/target_torus.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

using testing::fx10;
using testing::simpleMachine;

// Position of each axis in the routing order.
std::vector<int> orderRank(const Machine& m) {
  std::vector<int> rank(m.axisCount());
  for (int i = 0; i < m.axisCount(); ++i) rank[m.routingOrder[i]] = i;
  return rank;
}

// Checks one route against the definition: a path of existing links from p to q, axes in
// routing order, each axis the shorter way round (ties +), length equal to hops().
void checkRoute(const Machine& m, const Box& box, const Network& r, int p, int q) {
  const std::vector<LinkId> route = r.route(p, q);
  ASSERT_EQ(static_cast<int>(route.size()), r.hops(p, q));
  const auto rank = orderRank(m);
  int at = p, lastAxisRank = -1;
  std::vector<int> steps(box.axisCount(), 0);
  for (LinkId link : route) {
    ASSERT_EQ(r.linkSource(link), at);
    const int axis = r.linkAxis(link);
    ASSERT_GE(rank[axis], lastAxisRank) << "axis out of routing order";
    lastAxisRank = rank[axis];
    steps[axis] += r.linkIsPlus(link) ? 1 : -1;
    const int c = r.coordinate(at, axis);
    if (!box.wrap[axis]) {
      ASSERT_TRUE(r.linkIsPlus(link) ? c + 1 < box.shape[axis] : c > 0);
    }
    at = r.linkTarget(link);
  }
  ASSERT_EQ(at, q);
  for (int a = 0; a < box.axisCount(); ++a) {
    const int size = box.shape[a];
    const int delta = r.coordinate(q, a) - r.coordinate(p, a);
    if (!box.wrap[a]) {
      EXPECT_EQ(steps[a], delta);
    } else {
      const int forward = ((delta % size) + size) % size;
      const int expected = forward <= size - forward ? forward : forward - size;
      EXPECT_EQ(steps[a], expected) << "axis " << a;
    }
  }
}

void checkRandomRoutes(const Machine& m, const std::string& shape, int samples) {
  const Box box = makeBox(m, shape);
  const Network cached(m, box);
  const Network walked(m, box, 0);
  ASSERT_FALSE(walked.routesCached());
  Rng rng(7);
  for (int i = 0; i < samples; ++i) {
    const int p = static_cast<int>(rng.below(box.nodeCount));
    const int q = static_cast<int>(rng.below(box.nodeCount));
    checkRoute(m, box, cached, p, q);
    checkRoute(m, box, walked, p, q);
    ASSERT_EQ(cached.route(p, q), walked.route(p, q));
  }
}

TEST(Routing, RandomRoutesFollowTheDefinition) {
  checkRandomRoutes(fx10(), "2x2x2x2x3x2", 2000);
  checkRandomRoutes(fx10(), "4x2x8x2x3x2", 2000);
  checkRandomRoutes(fx10(), "4x1x1x2x3x2", 1000);
  checkRandomRoutes(simpleMachine({8, 8, 8}, {true, true, true}), "8x8x8", 2000);
  checkRandomRoutes(simpleMachine({5, 6}, {false, true}), "5x6", 1000);
  checkRandomRoutes(simpleMachine({7}, {true}), "7", 200);
}

TEST(Routing, CacheIsUsedForSmallBoxes) {
  const Machine m = fx10();
  EXPECT_TRUE(Network(m, makeBox(m, "2x2x2x2x3x2")).routesCached());
  EXPECT_FALSE(Network(m, makeBox(m, "2x2x2x2x3x2"), 1000).routesCached());
}

TEST(Routing, TiesGoThePlusWayAndOrderIsXYZACB) {
  const Machine m = fx10();
  const Box box = makeBox(m, "4x2x8x2x3x2");
  const Network r(m, box);
  // X from 0 to 2 on a ring of 4: two hops either way, so +.
  const auto route = r.route(box.nodeAt({0, 0, 0, 0, 0, 0}), box.nodeAt({2, 0, 0, 0, 0, 0}));
  ASSERT_EQ(route.size(), 2u);
  EXPECT_TRUE(r.linkIsPlus(route[0]) && r.linkIsPlus(route[1]));
  // B before C in axis order, but C is routed first.
  const auto bc = r.route(box.nodeAt({0, 0, 0, 0, 0, 0}), box.nodeAt({0, 0, 0, 0, 1, 1}));
  ASSERT_EQ(bc.size(), 2u);
  EXPECT_EQ(r.linkAxis(bc[0]), 5);
  EXPECT_EQ(r.linkAxis(bc[1]), 4);
  // Z from 0 to 7 on a ring of 8: one hop the - way.
  const auto z = r.route(box.nodeAt({0, 0, 0, 0, 0, 0}), box.nodeAt({0, 0, 7, 0, 0, 0}));
  ASSERT_EQ(z.size(), 1u);
  EXPECT_FALSE(r.linkIsPlus(z[0]));
}

TEST(Routing, SubBoxDoesNotUseWrapLinks) {
  const Machine m = fx10();
  const Box box = makeBox(m, "2x2x4x2x3x2");  // Z: 4 of 8, so a mesh inside the box
  const Network r(m, box);
  EXPECT_EQ(r.hops(box.nodeAt({0, 0, 0, 0, 0, 0}), box.nodeAt({0, 0, 3, 0, 0, 0})), 3);
}

// The members that answer for the kind of network, on a box (graph_machine_test.cpp has the
// graph's): link names and which ids are links, the platform's note, halving, the grid target.
TEST(Network, KindDecisionsOnABox) {
  const Machine m = fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");  // X a mesh of 2 (part of a ring of 4), Y a ring
  const Network r(m, box);
  const auto id = [](int node, int axis, bool plus) {
    return static_cast<LinkId>(node * 2 * 6 + 2 * axis + (plus ? 0 : 1));
  };
  EXPECT_TRUE(r.linkExists(id(0, 0, true)));
  EXPECT_FALSE(r.linkExists(id(0, 0, false)));  // past the mesh's edge
  EXPECT_FALSE(r.linkExists(id(1, 0, true)));
  EXPECT_TRUE(r.linkExists(id(0, 1, false)));  // Y wraps
  EXPECT_EQ(r.linkName(id(0, 0, true)), "n0-0-0-0-0-0:X+");
  EXPECT_EQ(r.linkName(id(1, 0, false)), "n1-0-0-0-0-0:X-");
  EXPECT_EQ(r.linkName(id(35, 4, true)), "n1-1-0-0-2-0:B+");
  // Every existing link is the one hop its name says.
  for (LinkId link = 0; link < r.linkIdLimit(); ++link)
    EXPECT_EQ(r.linkExists(link),
              r.neighbour(r.linkSource(link), r.linkAxis(link), r.linkIsPlus(link)) >= 0);
  EXPECT_EQ(r.platformNote({"X", "Y", "Z", "A", "B", "C"}),
            "       Hosts are named n<box coordinates> (axes X Y Z A B C).\n"
            "       One SHARED link per directed link of the box (<host>:<axis><+|->), "
            "bandwidth link_bandwidth " +
                exactNumber(m.linkBandwidth) + " B/s, latency hop_latency " +
                exactNumber(m.hopLatency) +
                " s.\n"
                "       Routes are tac3map's dimension-order routes (Network::route), one per "
                "ordered pair of hosts:\n");
  EXPECT_EQ(r.whyNotHalvable(), "");
  const TargetTorus grid = targetTorusOf(m, box);
  EXPECT_TRUE(grid.isGrid());
  EXPECT_EQ(grid.whyNoGrid, "");
  EXPECT_EQ(grid.extents.size(), 3u);  // Tofu's logical 3D torus
  EXPECT_TRUE(grid.adjacent.empty());
  EXPECT_TRUE(grid.vertexOfCell.empty());
}

}  // namespace
}  // namespace tac3map
