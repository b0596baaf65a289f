// Machine files from `tac3map topology` (gen/topologies.hpp): each reads back; the fat-tree's
// d-mod-k routes are minimal and spread over the top switches; the dragonfly's minimal routes
// take at most three router hops; the tree is a tree; bad parameters are input errors.
#include "tac3map/gen/topologies.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tac3map/bcast/broadcast.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/network/graph_network.hpp"
#include "tac3map/network/machine.hpp"

namespace tac3map {
namespace {

TEST(Topologies, FatTreeRoutesAreMinimalAndSpreadByDestination) {
  for (const auto& [k, n] : std::vector<std::pair<int, int>>{{2, 3}, {3, 2}, {4, 2}, {2, 4}}) {
    const GraphNetwork net = parseGraphNetwork(fatTreeMachine(k, n, {}), "ft.json");
    int computeNodes = 1;
    for (int i = 0; i < n; ++i) computeNodes *= k;
    ASSERT_EQ(net.computeCount(), computeNodes);
    EXPECT_EQ(static_cast<int>(net.nodes.size()), computeNodes + n * computeNodes / k);
    // d-mod-k: a route over the top climbs by the destination's digits, so each down link
    // from a top switch carries the routes to one destination only, from every source.
    std::map<int, std::set<int>> destinationsOf;  // first arc down from the top
    std::set<int> tops;                           // from node 0 to the far half
    for (int s = 0; s < computeNodes; ++s)
      for (int d = 0; d < computeNodes; ++d) {
        if (s == d) continue;
        int top = 0;  // the highest base-k digit where s and d differ
        for (int i = 0, p = 1; i < n; ++i, p *= k)
          if ((s / p) % k != (d / p) % k) top = i;
        const int arcs = static_cast<int>(net.routeEnd(s, d) - net.routeBegin(s, d));
        ASSERT_EQ(arcs, 2 * (top + 1)) << s << " -> " << d;
        if (top == n - 1 && n > 1) {
          destinationsOf[net.routeBegin(s, d)[top + 1]].insert(d);
          if (s == 0) tops.insert(net.arcs[net.routeBegin(s, d)[top]].to);
        }
      }
    for (const auto& [arc, destinations] : destinationsOf)
      EXPECT_EQ(destinations.size(), 1u) << k << "-ary " << n << "-tree, arc " << arc;
    EXPECT_GT(tops.size(), 1u);
  }
}

TEST(Topologies, DragonflyRoutesTakeAtMostThreeRouterHops) {
  const GraphNetwork net = parseGraphNetwork(dragonflyMachine(5, 4, 2, {}, {1e8, 1e-6}), "df.json");
  ASSERT_EQ(net.computeCount(), 40);
  EXPECT_EQ(net.arcs.size() / 2, 40u + 5u * 6u + 10u);  // hosts, local all-to-all, global
  for (int s = 0; s < net.computeCount(); ++s)
    for (int d = 0; d < net.computeCount(); ++d)
      if (s != d) {
        ASSERT_LE(net.routeEnd(s, d) - net.routeBegin(s, d), 5);
      }
}

TEST(Topologies, TreeAndTorusReadBack) {
  const GraphNetwork tree =
      parseGraphNetwork(treeMachine({2, 3, 2}, {{1.25e8, 5e-5}, {1e9, 1e-6}}), "tree.json");
  EXPECT_EQ(tree.computeCount(), 12);
  EXPECT_EQ(tree.arcs.size() / 2 + 1, tree.nodes.size());  // a tree
  EXPECT_DOUBLE_EQ(tree.arcs[0].bandwidth, 1.25e8);        // root level
  EXPECT_DOUBLE_EQ(tree.arcs.back().bandwidth, 1e9);       // the last level given, below
  EXPECT_NO_THROW(BroadcastNetwork(tree, {}));
  const Machine torus = parseMachine(torusMachine({4, 3, 2}, true, {2e9, 1e-7}), "t.json");
  EXPECT_EQ(torus.shapeText(), "4x3x2");
  EXPECT_TRUE(torus.axes[0].wrap);
  EXPECT_DOUBLE_EQ(torus.linkBandwidth, 2e9);
}

TEST(Topologies, BadParametersAreInputErrors) {
  EXPECT_THROW(fatTreeMachine(1, 3, {}), InputError);
  EXPECT_THROW(fatTreeMachine(8, 5, {}), InputError);  // 32,768 compute nodes
  EXPECT_THROW(treeMachine({0, 4}, {{}}), InputError);
  EXPECT_THROW(dragonflyMachine(3, 2, 1, {-1, 0}, {}), InputError);
  EXPECT_THROW(torusMachine({}, true, {}), InputError);
}

}  // namespace
}  // namespace tac3map
