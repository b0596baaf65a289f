// Broadcast schedules on trees (bcast/broadcast.hpp): on random trees of up to 7 compute
// nodes (random bandwidths and latencies, relay nodes, asymmetric and half-duplex links) the
// branch and bound equals an exhaustive search over every chronological schedule, with and
// without its lower bound, and is never slower than flat or binomial; and every schedule's
// times are reproduced by an independent replay of the model.
#include "tac3map/bcast/broadcast.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/network/machine.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

double uniform(Rng& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng.below(1000000)) / 1e6;
}

// A random tree: node 0 and most others compute nodes, some relay-only; links with random
// parameters, a third asymmetric, a sixth half duplex.
std::string randomTree(Rng& rng, int computeNodes) {
  std::vector<bool> compute;
  int made = 0;
  while (made < computeNodes) {
    const bool relay = !compute.empty() && rng.below(4) == 0;
    compute.push_back(!relay);
    made += !relay;
  }
  std::ostringstream s;
  s << R"({"kind": "graph", "nodes": [)";
  for (std::size_t v = 0; v < compute.size(); ++v)
    s << (v ? ", " : "") << R"({"name": "v)" << v << R"(", "compute": )"
      << (compute[v] ? "true" : "false") << "}";
  s << R"(], "links": [)";
  for (std::size_t v = 1; v < compute.size(); ++v) {
    const std::size_t parent = rng.below(v);
    s << (v > 1 ? ", " : "") << R"({"between": ["v)" << parent << R"(", "v)" << v
      << R"("], "bandwidth": )" << uniform(rng, 1e7, 1e9) << R"(, "latency": )"
      << uniform(rng, 0, 1e-4);
    if (rng.below(3) == 0)
      s << R"(, "bandwidth_back": )" << uniform(rng, 1e7, 1e9) << R"(, "latency_back": )"
        << uniform(rng, 0, 1e-4);
    if (rng.below(6) == 0) s << R"(, "duplex": "half")";
    s << "}";
  }
  s << "]}";
  return s.str();
}

// Every chronological schedule, no pruning: the minimum broadcast time.
double exhaustive(const BroadcastNetwork& net, int root, double bytes) {
  BroadcastState state(net, root, bytes);
  double best = std::numeric_limits<double>::infinity();
  std::function<void()> all = [&] {
    if (state.holders() == net.participants()) {
      best = std::min(best, state.makespan());
      return;
    }
    for (int s = 0; s < net.participants(); ++s)
      for (int r = 0; r < net.participants(); ++r)
        if (state.holds(s) && !state.holds(r)) {
          state.add(state.plan(s, r));
          all();
          state.undo();
        }
  };
  all();
  return best;
}

// The model replayed independently from the schedule's transfers: each one's end, who holds
// the message when, the chronological order, that no capacity is ever over-reserved, and
// that no earlier start would have fitted.
void replay(const BroadcastNetwork& net, const BroadcastSchedule& s) {
  struct Busy {
    int capacity;
    double from, to, rate;
  };
  std::vector<Busy> busy;
  std::vector<double> holds(net.participants(), -1);
  holds[s.root] = 0;
  const auto eps = [](double t) { return 1e-12 + 1e-9 * std::abs(t); };
  // Whether src -> dst starting at t fits under what is reserved so far.
  const auto fitsAt = [&](int src, int dst, double t) {
    const auto& path = net.path(src, dst);
    const double length = s.bytes / path.bandwidth;
    for (std::size_t i = 0; i < path.capacities.size(); ++i) {
      const double a = t + path.offsets[i], b = a + length;
      std::vector<double> points{a};
      for (const Busy& x : busy)
        if (x.capacity == path.capacities[i] && x.from > a && x.from < b) points.push_back(x.from);
      for (double p : points) {
        double used = path.bandwidth;
        for (const Busy& x : busy)
          if (x.capacity == path.capacities[i] && x.from <= p + eps(p) && p < x.to - eps(x.to))
            used += x.rate;
        if (used > net.capacity(path.capacities[i]) * (1 + 1e-9)) return false;
      }
    }
    return true;
  };
  double last = 0, makespan = 0;
  for (const Transfer& t : s.transfers) {
    ASSERT_GE(holds[t.src], 0) << "sender without the message";
    ASSERT_LT(holds[t.dst], 0) << "receiver already holds it";
    const double earliest = std::max(holds[t.src], last);
    ASSERT_GE(t.start, earliest - eps(earliest));
    const auto& path = net.path(t.src, t.dst);
    ASSERT_NEAR(t.end, t.start + path.latency + s.bytes / path.bandwidth, eps(t.end));
    ASSERT_TRUE(fitsAt(t.src, t.dst, t.start)) << "over a link's bandwidth";
    // No earlier start fits: try the earliest time and every reservation's end on the path.
    std::vector<double> earlier{earliest};
    for (std::size_t i = 0; i < path.capacities.size(); ++i)
      for (const Busy& x : busy)
        if (x.capacity == path.capacities[i]) earlier.push_back(x.to - path.offsets[i]);
    for (double c : earlier) {
      if (c >= earliest && c < t.start - eps(t.start)) {
        ASSERT_FALSE(fitsAt(t.src, t.dst, c));
      }
    }
    for (std::size_t i = 0; i < path.capacities.size(); ++i)
      busy.push_back({path.capacities[i], t.start + path.offsets[i],
                      t.start + path.offsets[i] + s.bytes / path.bandwidth, path.bandwidth});
    holds[t.dst] = t.end;
    last = t.start;
    makespan = std::max(makespan, t.end);
  }
  for (double h : holds) ASSERT_GE(h, 0) << "a participant never got the message";
  ASSERT_NEAR(s.time, makespan, eps(makespan));
}

TEST(Broadcast, OptimalEqualsExhaustiveSearchOnRandomTrees) {
  Rng rng(21);
  for (int draw = 0; draw < 60; ++draw) {
    const int computeNodes = 2 + static_cast<int>(rng.below(6));  // 2 .. 7
    const GraphNetwork graph = parseGraphNetwork(randomTree(rng, computeNodes), "tree.json");
    const BroadcastNetwork net(graph, {});
    const int root = static_cast<int>(rng.below(computeNodes));
    const double bytes = 1 << 20;
    const double truth = exhaustive(net, root, bytes);
    const BroadcastSchedule bounded = optimalBroadcast(net, root, bytes, true);
    const BroadcastSchedule plain = optimalBroadcast(net, root, bytes, false, 0, false);
    SCOPED_TRACE("draw " + std::to_string(draw));
    EXPECT_TRUE(bounded.optimal);
    EXPECT_NEAR(bounded.time, truth, 1e-9 * truth);
    EXPECT_NEAR(plain.time, truth, 1e-9 * truth);
    const BroadcastSchedule flat = flatBroadcast(net, root, bytes);
    const BroadcastSchedule binomial = binomialBroadcast(net, root, bytes);
    EXPECT_LE(bounded.time, flat.time * (1 + 1e-9));
    EXPECT_LE(bounded.time, binomial.time * (1 + 1e-9));
    for (const BroadcastSchedule* s : {&bounded, &flat, &binomial}) replay(net, *s);
    if (::testing::Test::HasFailure()) return;
  }
}

// Symmetric trees, where the cut by subtree isomorphism removes most candidates: stars and dual-CPU
// clusters (the paper's Fig. 11 and 12 shapes, small enough for the exhaustive search), with
// half-duplex and asymmetric variants, from every root.
std::string symmetricTree(int smps, int cpus, bool half, bool asymmetric) {
  // The last SMP (or leaf) hangs on a slow link, so that rank-order schedules lose and the
  // search must find the optimum itself.
  std::ostringstream s;
  s << R"({"kind": "graph", "nodes": [{"name": "sw", "compute": false})";
  int c = 0;
  for (int m = 0; m < smps; ++m) {
    if (cpus > 1) s << R"(, {"name": "smp)" << m << R"(", "compute": false})";
    for (int k = 0; k < cpus; ++k) s << R"(, {"name": "c)" << c++ << R"("})";
  }
  s << R"(], "links": [)";
  c = 0;
  for (int m = 0; m < smps; ++m) {
    const std::string up = cpus > 1 ? "smp" + std::to_string(m) : "";
    if (cpus > 1)
      s << (m ? ", " : "") << R"({"between": [")" << up << R"(", "sw"], "bandwidth": )"
        << (m == smps - 1 ? "1.25e7" : "1.25e8") << R"(, "latency": 5e-5)"
        << (asymmetric ? R"(, "bandwidth_back": 6e7)" : "")
        << (half ? R"(, "duplex": "half"})" : "}");
    for (int k = 0; k < cpus; ++k, ++c)
      s << (m || k || cpus > 1 ? ", " : "") << R"({"between": ["c)" << c << R"(", ")"
        << (cpus > 1 ? up : "sw") << R"("], "bandwidth": )"
        << (cpus > 1        ? "1e9"
            : m == smps - 1 ? "1.25e7"
                            : "1.25e8")
        << R"(, "latency": )" << (cpus > 1 ? "1e-6" : "5e-5")
        << (half && cpus == 1 ? R"(, "duplex": "half"})" : "}");
  }
  s << "]}";
  return s.str();
}

TEST(Broadcast, SymmetryCutKeepsTheOptimumOnSymmetricTrees) {
  int beaten = 0;  // cases where the optimum beats both rank-order schedules
  for (const auto& [smps, cpus] : std::vector<std::pair<int, int>>{{5, 1}, {6, 1}, {3, 2}})
    for (bool half : {false, true})
      for (bool asymmetric : {false, true}) {
        const GraphNetwork graph =
            parseGraphNetwork(symmetricTree(smps, cpus, half, asymmetric), "sym.json");
        const BroadcastNetwork net(graph, {});
        for (int root = 0; root < net.participants(); ++root) {
          SCOPED_TRACE(std::to_string(smps) + "x" + std::to_string(cpus) + " root " +
                       std::to_string(root) + (half ? " half" : "") + (asymmetric ? " asym" : ""));
          const double truth = exhaustive(net, root, 1 << 20);
          // The cut is measured without the lower bound (which alone solves most of these
          // at the first node).
          const BroadcastSchedule both = optimalBroadcast(net, root, 1 << 20);
          const BroadcastSchedule cut = optimalBroadcast(net, root, 1 << 20, false, 0, true);
          const BroadcastSchedule full = optimalBroadcast(net, root, 1 << 20, false, 0, false);
          EXPECT_NEAR(both.time, truth, 1e-9 * truth);
          EXPECT_NEAR(cut.time, truth, 1e-9 * truth);
          EXPECT_NEAR(full.time, truth, 1e-9 * truth);
          EXPECT_LT(cut.searchNodes, full.searchNodes);
          replay(net, both);
          replay(net, cut);
          beaten += cut.time < std::min(flatBroadcast(net, root, 1 << 20).time,
                                        binomialBroadcast(net, root, 1 << 20).time) *
                                   (1 - 1e-6);
          if (::testing::Test::HasFailure()) return;
        }
      }
  EXPECT_GT(beaten, 10);
}

// Larger symmetric trees, where pipelined sends leave links reserved past the last start
// (a holder still sending is not interchangeable with an idle one): the cut search against
// the search without the cut, itself checked against the exhaustive one above.
TEST(Broadcast, SymmetryCutMatchesTheUncutSearchOnLargerTrees) {
  for (const auto& [smps, cpus] : std::vector<std::pair<int, int>>{{8, 1}, {9, 1}, {3, 2}})
    for (bool slow : {false, true}) {
      std::string text = symmetricTree(smps, cpus, false, false);
      if (!slow) {  // all branches alike: undo the slow last branch
        for (std::size_t at = text.find("1.25e7"); at != std::string::npos;
             at = text.find("1.25e7"))
          text.replace(at, 6, "1.25e8");
      }
      const GraphNetwork graph = parseGraphNetwork(text, "sym.json");
      const BroadcastNetwork net(graph, {});
      for (int root : {0, 1}) {
        SCOPED_TRACE(std::to_string(smps) + "x" + std::to_string(cpus) + " root " +
                     std::to_string(root) + (slow ? " slow" : ""));
        const BroadcastSchedule cut = optimalBroadcast(net, root, 1 << 20);
        const BroadcastSchedule cutOnly = optimalBroadcast(net, root, 1 << 20, false, 0, true);
        const BroadcastSchedule full = optimalBroadcast(net, root, 1 << 20, true, 0, false);
        ASSERT_TRUE(full.optimal);
        ASSERT_TRUE(cutOnly.optimal);
        EXPECT_NEAR(cut.time, full.time, 1e-9 * full.time);
        EXPECT_NEAR(cutOnly.time, full.time, 1e-9 * full.time);
        replay(net, cut);
        replay(net, cutOnly);
      }
    }
}

// A random tree whose inner nodes are mostly relays (switches), where the bound from the
// subtrees off a relay applies: leaves compute, inner nodes relay-only two times in three;
// links as randomTree's, with a slow link now and then (bandwidths spread over 1e6 .. 1e9).
std::string randomSwitchedTree(Rng& rng, int nodes) {
  std::vector<int> parent(nodes, -1);
  std::vector<bool> inner(nodes, false);
  for (int v = 1; v < nodes; ++v) inner[parent[v] = static_cast<int>(rng.below(v))] = true;
  std::vector<bool> compute(nodes);
  int computeNodes = 0;
  for (int v = 0; v < nodes; ++v) computeNodes += compute[v] = !inner[v] || rng.below(3) == 0;
  if (computeNodes < 2) compute[0] = compute[1] = true;
  const auto bandwidth = [&] {
    return rng.below(4) == 0 ? uniform(rng, 1e6, 1e7) : uniform(rng, 1e7, 1e9);
  };
  std::ostringstream s;
  s << R"({"kind": "graph", "nodes": [)";
  for (int v = 0; v < nodes; ++v)
    s << (v ? ", " : "") << R"({"name": "v)" << v << R"(", "compute": )"
      << (compute[v] ? "true" : "false") << "}";
  s << R"(], "links": [)";
  for (int v = 1; v < nodes; ++v) {
    s << (v > 1 ? ", " : "") << R"({"between": ["v)" << parent[v] << R"(", "v)" << v
      << R"("], "bandwidth": )" << bandwidth() << R"(, "latency": )" << uniform(rng, 0, 1e-4);
    if (rng.below(3) == 0)
      s << R"(, "bandwidth_back": )" << bandwidth() << R"(, "latency_back": )"
        << uniform(rng, 0, 1e-4);
    if (rng.below(6) == 0) s << R"(, "duplex": "half")";
    s << "}";
  }
  s << "]}";
  return s.str();
}

// The best time reachable from a state: every chronological continuation, no pruning.
double exhaustiveFrom(BroadcastState& state, int n) {
  if (state.holders() == n) return state.makespan();
  double best = std::numeric_limits<double>::infinity();
  for (int s = 0; s < n; ++s)
    for (int r = 0; r < n; ++r)
      if (state.holds(s) && !state.holds(r)) {
        state.add(state.plan(s, r));
        best = std::min(best, exhaustiveFrom(state, n));
        state.undo();
      }
  return best;
}

// The lower bound never exceeds the best time reachable from the state it bounds: random
// states (a random chronological prefix of transfers) on random trees, switched ones and the
// symmetric ones above, against the exhaustive search from there. The subtree term must
// matter in many of them (bound above the per-receiver one), or this would test little.
TEST(Broadcast, LowerBoundNeverExceedsTheBestContinuation) {
  Rng rng(77);
  int above = 0, tight = 0, cases = 0;
  const int draws = testing::underSanitizers() ? 400 : 1000;  // exhaustive searches, 10x slower
  for (int draw = 0; draw < draws; ++draw) {
    std::string text;
    if (draw % 4 == 3)
      text = symmetricTree(3 + static_cast<int>(rng.below(3)), 1 + static_cast<int>(rng.below(2)),
                           rng.below(2) == 0, rng.below(2) == 0);
    else if (draw % 4 == 2)
      text = randomTree(rng, 2 + static_cast<int>(rng.below(6)));
    else
      text = randomSwitchedTree(rng, 3 + static_cast<int>(rng.below(9)));
    const GraphNetwork graph = parseGraphNetwork(text, "tree.json");
    const BroadcastNetwork net(graph, {});
    const int n = net.participants();
    if (n > 7) continue;  // the exhaustive search grows as n! squared
    const double bytes = 1 << 20;
    const int root = static_cast<int>(rng.below(n));
    BroadcastState state(net, root, bytes);
    const int prefix = static_cast<int>(rng.below(n - 1));
    for (int k = 0; k < prefix; ++k) {
      std::vector<std::pair<int, int>> pairs;
      for (int s = 0; s < n; ++s)
        for (int r = 0; r < n; ++r)
          if (state.holds(s) && !state.holds(r)) pairs.push_back({s, r});
      const auto [s, r] = pairs[rng.below(pairs.size())];
      state.add(state.plan(s, r));
    }
    const BroadcastBound bound(net, bytes);
    const double lower = bound(state), simple = bound.perReceiver(state);
    const double truth = exhaustiveFrom(state, n);
    SCOPED_TRACE("draw " + std::to_string(draw) + ": " + text);
    ASSERT_LE(lower, truth * (1 + 1e-9));
    ASSERT_LE(simple, lower);
    ++cases;
    above += lower > simple * (1 + 1e-6);
    tight += lower > truth * (1 - 1e-6);
  }
  EXPECT_GT(cases, draws * 8 / 10);
  EXPECT_GT(above, cases / 12) << tight << " tight";
}

// The search with the bound equals the search without it (itself checked against the
// exhaustive search above) on switched random trees of up to 8 compute nodes, where the
// subtree term prunes.
TEST(Broadcast, BoundedSearchEqualsTheUnboundedOneOnSwitchedTrees) {
  Rng rng(5);
  for (int draw = 0; draw < 40; ++draw) {
    const GraphNetwork graph =
        parseGraphNetwork(randomSwitchedTree(rng, 4 + static_cast<int>(rng.below(9))), "t.json");
    const BroadcastNetwork net(graph, {});
    if (net.participants() > 8) continue;
    const int root = static_cast<int>(rng.below(net.participants()));
    const BroadcastSchedule bounded = optimalBroadcast(net, root, 1 << 20);
    const BroadcastSchedule plain = optimalBroadcast(net, root, 1 << 20, false);
    SCOPED_TRACE("draw " + std::to_string(draw));
    ASSERT_TRUE(plain.optimal);
    EXPECT_NEAR(bounded.time, plain.time, 1e-9 * plain.time);
    EXPECT_LE(bounded.searchNodes, plain.searchNodes);
    replay(net, bounded);
  }
}

// The paper's point (its Table 5): on the nonuniform 2x4x(1+1) cluster from root 1 (c1),
// MPICH's binomial tree crosses the slow switch-to-switch link twice; the optimum does not.
TEST(Broadcast, OptimalBeatsBinomialOnTheNonuniformClusterFromRoot1) {
  const GraphNetwork graph = loadGraphNetwork(std::string(TAC3MAP_SOURCE_DIR) +
                                              "/topologies/trees/nonuniform-2x4x1+1.json");
  const BroadcastNetwork net(graph, {});
  const int root = net.indexOf("c1");
  ASSERT_EQ(root, 1);
  const BroadcastSchedule binomial = binomialBroadcast(net, root, 1 << 20);
  const BroadcastSchedule optimal = optimalBroadcast(net, root, 1 << 20, true, 60);
  EXPECT_LT(optimal.time, binomial.time * (1 - 1e-3));
  EXPECT_LT(optimal.time, 0.26);  // three crossings of 12.5 MB/s links: about 253 ms
  replay(net, optimal);
}

TEST(Broadcast, RejectsWhatIsNotATreeAndUnknownParticipants) {
  const std::string ring = R"({"kind": "graph", "nodes": [{"name": "a"}, {"name": "b"},
    {"name": "c"}], "links": [{"between": ["a", "b"], "bandwidth": 1, "latency": 0},
    {"between": ["b", "c"], "bandwidth": 1, "latency": 0},
    {"between": ["c", "a"], "bandwidth": 1, "latency": 0}]})";
  const GraphNetwork g = parseGraphNetwork(ring, "ring.json");
  EXPECT_THROW(BroadcastNetwork(g, {}), InputError);
  Rng rng(3);
  const GraphNetwork tree = parseGraphNetwork(randomTree(rng, 3), "tree.json");
  EXPECT_THROW(BroadcastNetwork(tree, {"v0", "nope"}), InputError);
  EXPECT_THROW(BroadcastNetwork(tree, {"v0", "v0"}), InputError);
}

// bcast takes a machine as every command does; its topology gives the tree, or says why not.
TEST(Broadcast, TakesAMachineWhoseTopologyIsATree) {
  Rng rng(5);
  const std::string text = randomTree(rng, 5);
  const Machine machine = parseMachine(text, "tree.json");
  const GraphNetwork graph = parseGraphNetwork(text, "tree.json");
  const BroadcastNetwork fromMachine(machine, {}), fromGraph(graph, {});
  ASSERT_EQ(fromMachine.participants(), fromGraph.participants());
  for (int p = 0; p < fromMachine.participants(); ++p)
    EXPECT_EQ(fromMachine.name(p), fromGraph.name(p));
  EXPECT_EQ(optimalBroadcast(fromMachine, 0, 1e6, true, 10).time,
            optimalBroadcast(fromGraph, 0, 1e6, true, 10).time);
  const Machine torus = parseMachine(R"({"axes": [{"name": "X", "size": 4, "wrap": true}],
    "routing_order": ["X"], "link_bandwidth": 1e9, "hop_latency": 0})",
                                     "ring4.json");
  try {
    BroadcastNetwork net(torus, {});
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ring4.json"), std::string::npos) << what;
    EXPECT_NE(what.find("a torus machine is not one"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace tac3map
