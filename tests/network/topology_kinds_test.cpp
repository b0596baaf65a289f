// The registry of network kinds (src/network/topology_kinds.cpp): whatever a kind's own file
// does, its example machine must read back as that kind and give a network every layer can
// use. A new kind's registry line brings it under these checks.
#include "topology_kinds.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tac3map/io/error.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/network/target_torus.hpp"
#include "tac3map/network/topology.hpp"

namespace tac3map {
namespace {

TEST(TopologyKinds, NamesAreUniqueAndTheDefaultIsTheTorus) {
  const std::vector<TopologyKind>& kinds = topologyKinds();
  ASSERT_GE(kinds.size(), 2u);
  EXPECT_STREQ(kinds.front().name, "torus");  // what a file without "kind" is
  std::set<std::string> names;
  for (const TopologyKind& kind : kinds) {
    EXPECT_TRUE(names.insert(kind.name).second) << kind.name << " twice";
    EXPECT_GT(std::string(kind.summary).size(), 10u) << kind.name;
    EXPECT_NE(kind.read, nullptr) << kind.name;
  }
}

TEST(TopologyKinds, AnUnknownKindListsEveryKind) {
  try {
    parseMachine(R"({"kind": "hypercube"})", "m.json");
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("m.json"), std::string::npos) << what;
    for (const TopologyKind& kind : topologyKinds())
      EXPECT_NE(what.find(std::string("\"") + kind.name + "\""), std::string::npos) << what;
  }
}

// Checks the network of machine `m` on all of its nodes, with routes cached or walked.
void checkNetwork(const Machine& m, std::size_t cacheBudget) {
  const Box box = m.boxFor("", "", true, "shape required", "no shape");
  const Network net(m, box, cacheBudget);
  ASSERT_EQ(net.nodeCount(), box.nodeCount);
  EXPECT_EQ(&net.topology(), m.topology.get());
  std::set<std::string> linkNames;
  std::set<LinkId> used;
  int longest = 0;
  for (int p = 0; p < net.nodeCount(); ++p)
    for (int q = 0; q < net.nodeCount(); ++q) {
      const std::vector<LinkId> route = net.route(p, q);
      ASSERT_EQ(static_cast<int>(route.size()), net.hops(p, q)) << p << "->" << q;
      EXPECT_EQ(route.empty(), p == q) << p << "->" << q;
      longest = std::max(longest, static_cast<int>(route.size()));
      std::set<LinkId> once(route.begin(), route.end());
      EXPECT_EQ(once.size(), route.size()) << "a route crosses a link twice";
      for (LinkId link : route) {
        ASSERT_GE(link, 0);
        ASSERT_LT(link, net.linkIdLimit());
        EXPECT_TRUE(net.linkExists(link)) << net.linkName(link);
        EXPECT_GT(net.bandwidthOf(link), 0);
        EXPECT_GE(net.latencyOf(link), 0);
        if (used.insert(link).second) {
          EXPECT_TRUE(linkNames.insert(net.linkName(link)).second) << net.linkName(link);
        }
      }
    }
  EXPECT_EQ(net.longestRoute(), longest);
  for (int node = 0; node < net.nodeCount(); ++node)
    for (int s = 0; s < net.nearbySlots(); ++s) {
      const int near = net.nearby(node, s);
      EXPECT_GE(near, -1);
      EXPECT_LT(near, net.nodeCount());
      EXPECT_NE(near, node);
    }
  EXPECT_FALSE(net.platformNote({}).empty());
  EXPECT_FALSE(m.nodesText(box).empty());
  // A start's target covers every node once.
  const TargetTorus target = targetTorusOf(m, box);
  std::vector<int> nodes = target.node;
  std::sort(nodes.begin(), nodes.end());
  ASSERT_EQ(static_cast<int>(nodes.size()), box.nodeCount);
  for (int k = 0; k < box.nodeCount; ++k) EXPECT_EQ(nodes[k], k);
  // Named nodes are found by their names.
  for (int node = 0; node < box.nodeCount && m.namesNodes(); ++node)
    EXPECT_EQ(m.nodeNamed(m.hostName(node)), node);
}

TEST(TopologyKinds, EachExampleReadsAsItsKindAndGivesAUsableNetwork) {
  for (const TopologyKind& kind : topologyKinds()) {
    SCOPED_TRACE(kind.name);
    const Machine m = parseMachine(kind.example, std::string(kind.name) + ".json");
    EXPECT_STREQ(m.topology->kind(), kind.name);
    EXPECT_GT(m.nodeCount(), 1);
    checkNetwork(m, Network::kDefaultCacheBudget);
    checkNetwork(m, 0);  // routes walked where the kind walks them
  }
}

// linkExists can say no (so the check above means something): a mesh axis has ids past its
// edges.
TEST(TopologyKinds, AMeshAxisHasLinkIdsThatAreNoLinks) {
  const Machine m = parseMachine(topologyKinds().front().example, "torus.json");
  const Box box = m.boxFor("", "", true, "", "");
  const Network net(m, box);
  int missing = 0;
  for (LinkId link = 0; link < net.linkIdLimit(); ++link) missing += !net.linkExists(link);
  EXPECT_GT(missing, 0);  // the example's mesh axis has ids past its edges
}

}  // namespace
}  // namespace tac3map
