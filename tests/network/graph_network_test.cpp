// Machine files of kind "graph" (network/graph_network.hpp): nodes, links (asymmetric,
// half duplex), shortest routes checked against an independent breadth-first search on
// random trees, listed routes, and one clear error per kind of bad input.
#include "tac3map/network/graph_network.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

// A star: n compute nodes each linked to one switch.
std::string star(int n, const std::string& extra = "") {
  std::ostringstream s;
  s << R"({"name": "star", "kind": "graph", "nodes": [{"name": "sw", "compute": false})";
  for (int i = 0; i < n; ++i) s << R"(, {"name": "n)" << i << R"("})";
  s << R"(], "links": [)";
  for (int i = 0; i < n; ++i)
    s << (i ? ", " : "") << R"({"between": ["n)" << i
      << R"(", "sw"], "bandwidth": 1.25e8, "latency": 5e-5})";
  s << "]" << extra << "}";
  return s.str();
}

std::vector<int> route(const GraphNetwork& net, int i, int j) {
  return {net.routeBegin(i, j), net.routeEnd(i, j)};
}

TEST(GraphNetwork, ReadsAStarAndRoutesThroughItsSwitch) {
  const GraphNetwork net = parseGraphNetwork(star(4), "star.json");
  EXPECT_EQ(net.computeCount(), 4);
  EXPECT_EQ(net.arcs.size(), 8u);
  EXPECT_EQ(net.capacities, 8);
  // n0 -> n2: n0's link forward (arc 0), then n2's link back (arc 5).
  EXPECT_EQ(route(net, 0, 2), (std::vector<int>{0, 5}));
  EXPECT_TRUE(route(net, 1, 1).empty());
  EXPECT_DOUBLE_EQ(net.arcs[5].bandwidth, 1.25e8);
}

TEST(GraphNetwork, AsymmetricAndHalfDuplexLinks) {
  const std::string text = R"({"kind": "graph", "nodes": [{"name": "a"}, {"name": "b"}],
    "links": [{"between": ["a", "b"], "bandwidth": 2e9, "latency": 1e-6,
               "bandwidth_back": 1e9, "latency_back": 3e-6},
              {"between": ["a", "b"], "bandwidth": 5e8, "latency": 0, "duplex": "half"}]})";
  const GraphNetwork net = parseGraphNetwork(text, "ab.json");
  EXPECT_DOUBLE_EQ(net.arcs[1].bandwidth, 1e9);
  EXPECT_DOUBLE_EQ(net.arcs[1].latency, 3e-6);
  EXPECT_NE(net.arcs[0].capacity, net.arcs[1].capacity);
  EXPECT_EQ(net.arcs[2].capacity, net.arcs[3].capacity);  // half duplex: one capacity
  EXPECT_DOUBLE_EQ(net.arcs[3].bandwidth, 5e8);
  EXPECT_EQ(net.capacities, 3);
  EXPECT_EQ(route(net, 0, 1), (std::vector<int>{0}));  // the first link in file order
}

// Random trees (relay-only inner nodes, compute leaves and some compute inner nodes): every
// route is a path of arcs from its source to its target, as long as an independent
// breadth-first search says the shortest is.
TEST(GraphNetwork, ShortestRoutesAreShortestPathsOnRandomTrees) {
  Rng rng(9);
  for (int draw = 0; draw < 30; ++draw) {
    const int n = 2 + static_cast<int>(rng.below(14));
    std::ostringstream s;
    s << R"({"kind": "graph", "nodes": [)";
    for (int v = 0; v < n; ++v)
      s << (v ? ", " : "") << R"({"name": "v)" << v << R"(", "compute": )"
        << (v == 0 || rng.below(3) != 0 ? "true" : "false") << "}";
    s << R"(], "links": [)";
    std::vector<std::vector<int>> adjacent(n);
    for (int v = 1; v < n; ++v) {
      const int parent = static_cast<int>(rng.below(v));
      adjacent[v].push_back(parent);
      adjacent[parent].push_back(v);
      s << (v > 1 ? ", " : "") << R"({"between": ["v)" << parent << R"(", "v)" << v
        << R"("], "bandwidth": 1e9, "latency": 1e-6})";
    }
    s << "]}";
    const GraphNetwork net = parseGraphNetwork(s.str(), "tree.json");
    for (int i = 0; i < net.computeCount(); ++i) {
      std::vector<int> distance(n, -1);
      std::deque<int> queue{net.compute[i]};
      distance[net.compute[i]] = 0;
      while (!queue.empty()) {
        const int v = queue.front();
        queue.pop_front();
        for (int u : adjacent[v])
          if (distance[u] < 0) distance[u] = distance[v] + 1, queue.push_back(u);
      }
      for (int j = 0; j < net.computeCount(); ++j) {
        const std::vector<int> r = route(net, i, j);
        ASSERT_EQ(static_cast<int>(r.size()), distance[net.compute[j]]);
        int at = net.compute[i];
        for (int arc : r) {
          ASSERT_EQ(net.arcs[arc].from, at);
          at = net.arcs[arc].to;
        }
        ASSERT_EQ(at, net.compute[j]);
      }
    }
  }
}

TEST(GraphNetwork, ListedRoutes) {
  const std::string routes =
      R"(, "routing": "table", "routes": [{"path": ["n0", "sw", "n1"]}, {"path": ["n1", "sw", "n0"]}])";
  const GraphNetwork net = parseGraphNetwork(star(2, routes), "t.json");
  EXPECT_EQ(route(net, 0, 1), (std::vector<int>{0, 3}));
  EXPECT_EQ(route(net, 1, 0), (std::vector<int>{2, 1}));
}

std::string errorOf(const std::string& text) {
  try {
    parseGraphNetwork(text, "bad.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(GraphNetwork, BadInputSaysWhereAndWhat) {
  const auto has = [](const std::string& message, const std::string& part) {
    return message.find("bad.json") != std::string::npos && message.find(part) != std::string::npos;
  };
  EXPECT_TRUE(has(errorOf(R"({"kind": "torus"})"), "kind"));
  EXPECT_TRUE(has(errorOf(R"({"kind": "graph", "nodes": []})"), "nodes"));
  EXPECT_TRUE(has(errorOf(R"({"kind": "graph", "nodes": [{"name": "a"}, {"name": "a"}],
      "links": []})"),
                  "nodes[1].name"));
  EXPECT_TRUE(has(errorOf(R"({"kind": "graph", "nodes": [{"name": "a"}, {"name": "b"}],
      "links": [{"between": ["a", "c"], "bandwidth": 1, "latency": 0}]})"),
                  "links[0].between[1]: unknown node 'c'"));
  EXPECT_TRUE(has(errorOf(R"({"kind": "graph", "nodes": [{"name": "a"}, {"name": "b"}],
      "links": [{"between": ["a", "b"], "bandwidth": -1, "latency": 0}]})"),
                  "links[0].bandwidth"));
  EXPECT_TRUE(has(errorOf(R"({"kind": "graph", "nodes": [{"name": "a"}, {"name": "b"}],
      "links": [{"between": ["a", "b"], "bandwidth": 1, "latency": 0, "duplex": "both"}]})"),
                  "links[0].duplex"));
  EXPECT_TRUE(has(errorOf(R"({"kind": "graph", "nodes": [{"name": "a"}, {"name": "b"},
      {"name": "c"}], "links": [{"between": ["a", "b"], "bandwidth": 1, "latency": 0}]})"),
                  "no path from 'a' to 'c'"));
  EXPECT_TRUE(has(errorOf(star(2, R"(, "routing": "table", "routes": [{"path": ["n0", "n1"]}])")),
                  "routes[0].path[1]: no link from 'n0' to 'n1'"));
  EXPECT_TRUE(
      has(errorOf(star(2, R"(, "routing": "table", "routes": [{"path": ["n0", "sw", "n1"]}])")),
          "no route from 'n1' to 'n0'"));
  EXPECT_TRUE(has(errorOf(star(2, R"(, "routing": "fastest")")), "routing"));
}

}  // namespace
}  // namespace tac3map
