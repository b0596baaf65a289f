// Graph machines through the Network seam (network/network.hpp): scores on machines with
// listed routes ("table") against an evaluation that reads the routes straight from the file's
// node names, nearby nodes, the search's engines on graph networks, and the size guards.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/gen/topologies.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/graph_network.hpp"
#include "tac3map/network/machine.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/network/target_torus.hpp"
#include "tac3map/search/annealer.hpp"
#include "tac3map/search/objectives.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// A random connected graph of compute nodes c0.. and switches s0..; some links half duplex;
// with `table`, every ordered pair of compute nodes gets a random simple path (not always the
// shortest), written as a "routes" list.
struct RandomGraph {
  std::string json;
  std::vector<std::string> names;                         // node names, compute nodes first
  std::set<std::pair<int, int>> halfDuplex;               // (min, max) node ids
  std::map<std::pair<int, int>, std::vector<int>> paths;  // compute i, j -> node ids
};

void shuffle(std::vector<int>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

RandomGraph randomGraph(int compute, int switches, Rng& rng) {
  RandomGraph g;
  const int n = compute + switches;
  for (int i = 0; i < compute + switches; ++i) {
    std::string name(i < compute ? "c" : "s");
    name += std::to_string(i < compute ? i : i - compute);
    g.names.push_back(name);
  }
  std::set<std::pair<int, int>> edges;
  // A random spanning tree, then a few more links.
  for (int v = 1; v < n; ++v) {
    const int u = static_cast<int>(rng.below(v));
    edges.insert({std::min(u, v), std::max(u, v)});
  }
  for (int extra = 0; extra < n / 2; ++extra) {
    const int u = static_cast<int>(rng.below(n)), v = static_cast<int>(rng.below(n));
    if (u != v) edges.insert({std::min(u, v), std::max(u, v)});
  }
  std::vector<std::vector<int>> adjacent(n);
  std::ostringstream links;
  for (const auto& [u, v] : edges) {
    adjacent[u].push_back(v);
    adjacent[v].push_back(u);
    const bool half = rng.below(4) == 0;
    if (half) g.halfDuplex.insert({u, v});
    links << (links.tellp() > 0 ? ", " : "") << R"({"between": [")" << g.names[u] << R"(", ")"
          << g.names[v] << R"("], "bandwidth": 1e9, "latency": 1e-6)"
          << (half ? R"(, "duplex": "half")" : "") << "}";
  }
  // Random simple paths: a depth-first search taking neighbours in random order.
  std::ostringstream routes;
  for (int i = 0; i < compute; ++i)
    for (int j = 0; j < compute; ++j) {
      if (i == j) continue;
      std::vector<int> path{i};
      std::vector<bool> seen(n, false);
      seen[i] = true;
      std::vector<std::vector<int>> todo{adjacent[i]};
      shuffle(todo.back(), rng);
      while (path.back() != j) {
        if (todo.back().empty()) {
          path.pop_back();
          todo.pop_back();
          continue;
        }
        const int next = todo.back().back();
        todo.back().pop_back();
        if (seen[next]) continue;
        seen[next] = true;
        path.push_back(next);
        todo.push_back(adjacent[next]);
        shuffle(todo.back(), rng);
      }
      g.paths[{i, j}] = path;
      routes << (routes.tellp() > 0 ? ", " : "") << R"({"path": [)";
      for (std::size_t k = 0; k < path.size(); ++k)
        routes << (k ? ", " : "") << '"' << g.names[path[k]] << '"';
      routes << "]}";
    }
  std::ostringstream nodes;
  for (int v = 0; v < n; ++v)
    nodes << (v ? ", " : "") << R"({"name": ")" << g.names[v] << R"(", "compute": )"
          << (v < compute ? "true" : "false") << "}";
  g.json = R"({"name": "random", "kind": "graph", "nodes": [)" + nodes.str() + R"(], "links": [)" +
           links.str() + R"(], "routing": "table", "routes": [)" + routes.str() + "]}";
  return g;
}

// tac3, byte-hops and the busiest link from the listed paths alone: a link is an ordered pair
// of node names, or an unordered one for a half-duplex link.
ExactScores independentScores(const RandomGraph& g, const CcsSet& sets, const Mapping& m) {
  ExactScores e;
  for (const auto& set : sets.sets) {
    std::map<std::pair<int, int>, int> load;
    std::vector<std::vector<std::pair<int, int>>> linksOf;
    std::uint64_t largest = 0;
    for (const Communication& c : set) {
      linksOf.emplace_back();
      if (c.src == c.dst) continue;
      largest = std::max(largest, c.bytes);
      const std::vector<int>& path = g.paths.at({m.nodeOfTask[c.src], m.nodeOfTask[c.dst]});
      for (std::size_t k = 0; k + 1 < path.size(); ++k) {
        std::pair<int, int> link{path[k], path[k + 1]};
        const std::pair<int, int> sorted{std::min(link.first, link.second),
                                         std::max(link.first, link.second)};
        if (g.halfDuplex.count(sorted)) link = sorted;
        linksOf.back().push_back(link);
        ++load[link];
      }
      e.tahbByteHops += c.bytes * (path.size() - 1);
    }
    std::uint64_t worst = 0;
    for (std::size_t i = 0; i < set.size(); ++i) {
      int coll = 0;
      for (const auto& link : linksOf[i]) coll = std::max(coll, load[link]);
      worst = std::max(worst, set[i].bytes * static_cast<std::uint64_t>(coll));
    }
    e.tac3ByteCounts += worst;
    e.lowerBoundBytes += largest;
    for (const auto& [link, messages] : load)
      e.maxLinkMessages = std::max(e.maxLinkMessages, messages);
  }
  return e;
}

TEST(GraphMachine, ScoreOnATableMachineEqualsAnIndependentEvaluation) {
  Rng rng(2026);
  for (int round = 0; round < 20; ++round) {
    const int compute = 3 + static_cast<int>(rng.below(8));
    const RandomGraph g = randomGraph(compute, static_cast<int>(rng.below(6)), rng);
    const Machine machine = parseMachine(g.json, "random.json");
    ASSERT_NE(machine.topology->graph(), nullptr);
    const Box box = makeBox(machine, machine.shapeText());
    const Network network(machine, box);
    CcsSet sets;
    sets.tasks = compute;
    for (int t = 0; t < 3; ++t) {
      sets.sets.emplace_back();
      for (int k = 0; k < compute; ++k)
        sets.sets.back().push_back({static_cast<int>(rng.below(compute)),
                                    static_cast<int>(rng.below(compute)),
                                    std::uint64_t{64} << rng.below(4)});
    }
    const Problem problem = makeProblem(sets);
    const Mapping mapping = randomMapping(compute, box, round);
    const ExactScores ours = evaluateExact(problem, network, mapping);
    const ExactScores theirs = independentScores(g, sets, mapping);
    SCOPED_TRACE(g.json);
    EXPECT_EQ(ours.tac3ByteCounts, theirs.tac3ByteCounts);
    EXPECT_EQ(ours.lowerBoundBytes, theirs.lowerBoundBytes);
    EXPECT_EQ(ours.tahbByteHops, theirs.tahbByteHops);
    EXPECT_EQ(ours.maxLinkMessages, theirs.maxLinkMessages);
  }
}

TEST(GraphMachine, NearbyNodesHaveTheFewestHops) {
  const Machine machine = parseMachine(fatTreeMachine(4, 2, {}), "ft.json");
  const Box box = makeBox(machine, machine.shapeText());
  const Network network(machine, box);
  ASSERT_EQ(network.nodeCount(), 16);
  EXPECT_EQ(network.nearbySlots(), Network::kGraphNearby);
  EXPECT_EQ(network.longestRoute(), 4);
  for (int node = 0; node < 16; ++node) {
    std::set<int> seen;
    int farthest = 0;
    for (int s = 0; s < network.nearbySlots(); ++s) {
      const int near = network.nearby(node, s);
      ASSERT_GE(near, 0);
      ASSERT_NE(near, node);
      ASSERT_TRUE(seen.insert(near).second);
      farthest = std::max(farthest, network.hops(node, near));
    }
    // Every node not listed is at least as far as the farthest listed one.
    for (int other = 0; other < 16; ++other)
      if (other != node && !seen.count(other)) {
        EXPECT_GE(network.hops(node, other), farthest);
      }
    // The 3 others on its leaf switch (2 hops) come first.
    for (int s = 0; s < 3; ++s) EXPECT_EQ(network.hops(node, network.nearby(node, s)), 2);
  }
}

TEST(GraphMachine, AnnealingOnAFatTreeAndADragonflyIsExactAndNeverWorse) {
  for (const std::string& text :
       {fatTreeMachine(4, 2, {}), dragonflyMachine(3, 2, 2, {}, {}), treeMachine({2, 3}, {{}})}) {
    const Machine machine = parseMachine(text, "graph.json");
    const Box box = makeBox(machine, machine.shapeText());
    const Network network(machine, box);
    Rng rng(7);
    const int tasks = box.nodeCount;
    CcsSet sets;
    sets.tasks = tasks;
    for (int t = 0; t < 3; ++t) {
      sets.sets.emplace_back();
      for (int k = 0; k < tasks; ++k)
        sets.sets.back().push_back(
            {k, static_cast<int>(rng.below(tasks)), std::uint64_t{1024} << rng.below(3)});
    }
    const Problem problem = makeProblem(sets);
    const Mapping start = identityMapping(tasks, box);
    for (ObjectiveKind objective : {ObjectiveKind::Tac3, ObjectiveKind::Tahb}) {
      Schedule schedule;
      schedule.trialsPerTemperature = 200;
      const SearchResult result = anneal(problem, network, objective, start, schedule, 3);
      const ExactScores before = evaluateExact(problem, network, start);
      const ExactScores after = evaluateExact(problem, network, result.best);
      EXPECT_EQ(objectiveValue(after, objective), objectiveValue(result.bestScores, objective));
      EXPECT_LE(objectiveValue(after, objective), objectiveValue(before, objective));
    }
  }
}

TEST(GraphMachine, ASmallFileCannotMakeHugeRouteTables) {
  // A chain of 4,096 compute nodes: its shortest routes would hold 2.3e10 links.
  std::ostringstream nodes, links;
  for (int i = 0; i < kMaxGraphComputeNodes; ++i) {
    nodes << (i ? ", " : "") << R"({"name": "c)" << i << R"("})";
    if (i)
      links << (i > 1 ? ", " : "") << R"({"between": ["c)" << i - 1 << R"(", "c)" << i
            << R"("], "bandwidth": 1, "latency": 0})";
  }
  const std::string text =
      R"({"kind": "graph", "nodes": [)" + nodes.str() + R"(], "links": [)" + links.str() + "]}";
  try {
    parseMachine(text, "chain.json");
    FAIL() << "a chain of 4096 nodes was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("chain.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("links in all"), std::string::npos) << e.what();
  }
}

TEST(GraphMachine, UnknownKindSaysWhatIsExpected) {
  try {
    parseMachine(R"({"kind": "tree", "nodes": []})", "m.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("m.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("kind: expected one of \"torus\", \"graph\""),
              std::string::npos);
  }
}

// The members that answer for the kind of network, on graphs (network_test.cpp has the
// box's): link names (one direction, or both of a half-duplex link), the platform's note,
// halving, and the graph as a partitioner's target.
TEST(GraphMachine, KindDecisions) {
  const std::string path = testing::sourcePath("topologies/trees/star-8.json");
  const Machine m = loadMachine(path);
  const Box box = makeBox(m, m.shapeText());
  const Network r(m, box);
  ASSERT_EQ(r.linkIdLimit(), 16);  // 8 full-duplex links: one id per direction
  std::set<std::string> names;
  for (LinkId link = 0; link < r.linkIdLimit(); ++link) {
    EXPECT_TRUE(r.linkExists(link));
    const auto [from, to] = r.linkEnds(link);
    EXPECT_EQ(r.linkName(link),
              m.topology->graph()->nodes[from].name + "->" + m.topology->graph()->nodes[to].name);
    names.insert(r.linkName(link));
  }
  EXPECT_EQ(names.size(), 16u);
  EXPECT_TRUE(names.count("c0->sw") && names.count("sw->c0") && names.count("sw->c7"));
  const Machine half = parseMachine(
      R"({"kind": "graph", "nodes": [{"name": "a"}, {"name": "b"}],
          "links": [{"between": ["a", "b"], "bandwidth": 1e9, "latency": 1e-6,
                     "duplex": "half"}]})",
      "half.json");
  const Network halfNetwork(half, makeBox(half, half.shapeText()));
  ASSERT_EQ(halfNetwork.linkIdLimit(), 1);
  EXPECT_EQ(halfNetwork.linkName(0), "a<->b");

  EXPECT_EQ(r.platformNote({"node"}),
            "       Hosts are the machine's compute nodes by name; one SHARED link per link "
            "capacity of the graph, with its own bandwidth and latency, named as tac3map names "
            "it (from->to, or a<->b for a half-duplex link) with angle brackets written _.\n"
            "       Routes are tac3map's routes of the graph (Network::route), one per ordered "
            "pair of hosts:\n");
  EXPECT_EQ(r.whyNotHalvable(), "the network is a graph, not a mesh/torus box to halve");

  EXPECT_FALSE(distanceTorusOf(m, box, 5));  // no torus has a star's hops
  const TargetTorus target = targetTorusOf(m, box);
  EXPECT_FALSE(target.isGrid());
  EXPECT_EQ(target.whyNoGrid, path + " is a graph machine");
  EXPECT_TRUE(target.extents.empty());
  EXPECT_EQ(target.node, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  // File node 0 is the switch: cell k is vertex k + 1, each linked to it alone.
  EXPECT_EQ(target.vertexOfCell, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  ASSERT_EQ(target.adjacent.size(), 9u);
  EXPECT_EQ(target.adjacent[0], (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
  for (int v = 1; v <= 8; ++v) EXPECT_EQ(target.adjacent[v], (std::vector<int>{0}));
}

}  // namespace
}  // namespace tac3map
