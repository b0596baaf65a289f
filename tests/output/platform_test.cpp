// The SimGrid platform must route exactly as tac3map does: the XML is parsed back and every
// route checked against Network::route, with the engine, ejection and loopback links around
// it; the SMPI host file must put each rank on its mapped node.
#include "tac3map/output/platform.hpp"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tac3map/base/random.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/network/graph_network.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

using testing::fx10;

struct ParsedLink {
  double bandwidth = 0, latency = 0;
  std::string sharing;
};

struct ParsedPlatform {
  std::vector<std::string> hosts;
  std::map<std::string, ParsedLink> links;
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> routes;
  std::string text;
};

// A small reader for the elements platformXml writes: it finds them wherever they are and
// does not rely on the writer's line layout beyond one element per match.
ParsedPlatform parse(const std::string& xml) {
  ParsedPlatform p;
  p.text = xml;
  const std::regex host("<host id=\"([^\"]+)\"");
  const std::regex link(
      "<link id=\"([^\"]+)\" bandwidth=\"([^\"]+)Bps\" latency=\"([^\"]+)s\" "
      "sharing_policy=\"([A-Z]+)\"/>");
  const std::regex route(
      "<route src=\"([^\"]+)\" dst=\"([^\"]+)\" symmetrical=\"NO\">(.*?)</route>");
  const std::regex ctn("<link_ctn id=\"([^\"]+)\"/>");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), host); it != std::sregex_iterator();
       ++it)
    p.hosts.push_back((*it)[1]);
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), link); it != std::sregex_iterator();
       ++it) {
    EXPECT_EQ(p.links.count((*it)[1]), 0u) << "link declared twice: " << (*it)[1];
    p.links[(*it)[1]] = {std::stod((*it)[2]), std::stod((*it)[3]), (*it)[4]};
  }
  std::istringstream lines(xml);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, route)) continue;
    const std::string body = m[3];
    std::vector<std::string> ids;
    for (auto it = std::sregex_iterator(body.begin(), body.end(), ctn);
         it != std::sregex_iterator(); ++it)
      ids.push_back((*it)[1]);
    const auto key = std::make_pair(std::string(m[1]), std::string(m[2]));
    EXPECT_EQ(p.routes.count(key), 0u) << "route declared twice";
    p.routes[key] = ids;
  }
  return p;
}

// The name the platform should give a network link: its source host, axis and direction.
std::string expectedLinkName(const Machine& m, const Box& box, const Network& r, LinkId link) {
  return platformHostName(m, box, r.linkSource(link)) + ":" + m.axes[r.linkAxis(link)].name +
         (r.linkIsPlus(link) ? "+" : "-");
}

void checkPlatform(const Machine& m, const std::string& shape, int samples) {
  const Box box = makeBox(m, shape);
  const Network router(m, box);
  const ParsedPlatform p = parse(platformXml(m, box, router));
  const int n = box.nodeCount;
  ASSERT_EQ(static_cast<int>(p.hosts.size()), n);
  std::set<std::string> distinct(p.hosts.begin(), p.hosts.end());
  EXPECT_EQ(static_cast<int>(distinct.size()), n) << "host names must be distinct";
  for (int node = 0; node < n; ++node) EXPECT_TRUE(distinct.count(platformHostName(m, box, node)));
  ASSERT_EQ(p.routes.size(), static_cast<std::size_t>(n) * n);

  // Every directed link of the box, and only those, is a network link.
  int boxLinks = 0;
  for (int node = 0; node < n; ++node)
    for (int axis = 0; axis < box.axisCount(); ++axis)
      for (bool plus : {true, false})
        if (router.neighbour(node, axis, plus) >= 0) {
          ++boxLinks;
          const LinkId id =
              static_cast<LinkId>(node) * 2 * box.axisCount() + 2 * axis + (plus ? 0 : 1);
          const auto it = p.links.find(expectedLinkName(m, box, router, id));
          ASSERT_NE(it, p.links.end());
          EXPECT_DOUBLE_EQ(it->second.bandwidth, m.linkBandwidth);
          // Equal sharing: no latency on network links, so that CM02 weighs every route alike.
          EXPECT_DOUBLE_EQ(it->second.latency,
                           m.linkSharing == LinkSharing::Equal ? 0.0 : m.hopLatency);
          EXPECT_EQ(it->second.sharing, "SHARED");
        }
  const bool cap = m.injectionBandwidth < m.linkBandwidth;
  EXPECT_EQ(static_cast<int>(p.links.size()), boxLinks + 3 * n + (cap ? 1 : 0));

  // Routes: injection, (cap), tac3map's route, ejection; a node to itself: its loopback.
  Rng rng(7);
  for (int s = 0; s < samples; ++s) {
    const int a = static_cast<int>(rng.below(n)), b = static_cast<int>(rng.below(n));
    const std::string src = platformHostName(m, box, a), dst = platformHostName(m, box, b);
    const auto it = p.routes.find({src, dst});
    ASSERT_NE(it, p.routes.end()) << src << " -> " << dst;
    std::vector<std::string> expected;
    if (a == b) {
      expected = {src + ":loop"};
    } else {
      expected.push_back(src + ":inj");
      if (cap) expected.push_back("engine-cap");
      for (LinkId link : router.route(a, b))
        expected.push_back(expectedLinkName(m, box, router, link));
      expected.push_back(dst + ":ej");
    }
    EXPECT_EQ(it->second, expected) << src << " -> " << dst;
  }
  for (const auto& [pair, ids] : p.routes)
    for (const std::string& id : ids) ASSERT_TRUE(p.links.count(id)) << "undeclared link " << id;
}

// A graph machine: hosts are the compute nodes' names, one link per capacity with its own
// bandwidth and latency (a half-duplex link once), and every route is tac3map's, read here
// from the graph's arcs by node names.
TEST(Platform, GraphMachinesKeepTheirNamesLinksAndRoutes) {
  const std::string text = R"({"name": "g", "kind": "graph",
    "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "sw", "compute": false},
              {"name": "top", "compute": false}],
    "links": [{"between": ["a", "sw"], "bandwidth": 1e9, "latency": 1e-6},
              {"between": ["b", "sw"], "bandwidth": 2e9, "latency": 2e-6, "bandwidth_back": 3e9},
              {"between": ["sw", "top"], "bandwidth": 5e8, "latency": 4e-6, "duplex": "half"},
              {"between": ["c", "top"], "bandwidth": 1e9, "latency": 1e-6}]})";
  Machine m = parseMachine(text, "g.json");
  m.linkSharing = LinkSharing::LatencyWeighted;  // links keep their latencies
  const Box box = makeBox(m, m.shapeText());
  const Network router(m, box);
  const ParsedPlatform p = parse(platformXml(m, box, router));
  EXPECT_EQ(p.hosts, (std::vector<std::string>{"a", "b", "c"}));
  // 8 arcs, the half-duplex link's two as one: 7 network links, and 3 per host.
  EXPECT_EQ(p.links.size(), 7u + 3u * 3u);
  const auto linkOf = [&](const std::string& from, const std::string& to) {
    const int u = m.topology->graph()->nodeId(from), v = m.topology->graph()->nodeId(to);
    for (LinkId link = 0; link < router.linkIdLimit(); ++link) {
      const auto [x, y] = router.linkEnds(link);
      if ((x == u && y == v) ||
          (router.linkName(link).find("<->") != std::string::npos && x == v && y == u))
        return link;
    }
    return LinkId{-1};
  };
  const auto declared = [&](const std::string& from, const std::string& to) {
    const LinkId link = linkOf(from, to);
    EXPECT_GE(link, 0) << from << " " << to;
    std::string id = router.linkName(link);
    for (char& ch : id)
      if (ch == '<' || ch == '>') ch = '_';
    const auto it = p.links.find(id);
    EXPECT_NE(it, p.links.end()) << id;
    return it == p.links.end() ? ParsedLink{} : it->second;
  };
  EXPECT_DOUBLE_EQ(declared("b", "sw").bandwidth, 2e9);
  EXPECT_DOUBLE_EQ(declared("sw", "b").bandwidth, 3e9);
  EXPECT_DOUBLE_EQ(declared("sw", "b").latency, 2e-6);
  EXPECT_DOUBLE_EQ(declared("top", "sw").bandwidth, 5e8);  // half duplex: one link both ways
  EXPECT_DOUBLE_EQ(declared("top", "sw").latency, 4e-6);
  // a -> c: a:inj, a->sw, sw<->top, top->c, c:ej.
  const std::vector<std::string> route = p.routes.at({"a", "c"});
  ASSERT_EQ(route.size(), 5u);
  EXPECT_EQ(route.front(), "a:inj");
  EXPECT_EQ(route.back(), "c:ej");
  EXPECT_EQ(route[1], "a-_sw");
  EXPECT_EQ(route[2], "sw_-_top");
  EXPECT_EQ(route[3], "top-_c");
  EXPECT_EQ(p.routes.at({"c", "a"})[2], "sw_-_top");  // the same link the other way
  for (const auto& [pair, ids] : p.routes)
    for (const std::string& id : ids) ASSERT_TRUE(p.links.count(id)) << "undeclared link " << id;
  EXPECT_EQ(smpiHostfile(m, box, Mapping{{2, 0, 1}}), "c\na\nb\n");
}

TEST(Platform, RoutesAreTac3mapRoutesOnFx10Boxes) {
  const Machine m = fx10();
  checkPlatform(m, "2x2x2x2x3x2", 2000);
  checkPlatform(m, "1x2x4x2x3x2", 2000);
  checkPlatform(m, "4x2x1x2x3x2", 2000);
}

TEST(Platform, LatencyWeightedSharingKeepsTheHopLatencies) {
  Machine m = fx10();
  m.linkSharing = LinkSharing::LatencyWeighted;
  checkPlatform(m, "2x2x2x2x3x2", 500);
}

TEST(Platform, TheMpiProfileIsTheConfiguration) {
  const Machine m = fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");
  const Network router(m, box);
  MpiProfile mpi = loadMpiProfile("openmpi");
  mpi.messageOverhead = 1.5e-6;
  const std::string xml = platformXml(m, box, router, &mpi);
  for (const std::string prop :
       {R"(<prop id="smpi/send-is-detached-thresh" value="65536"/>)",
        R"(<prop id="smpi/os" value="0:1.5e-06:0"/>)", R"(<prop id="smpi/or" value="0:1.5e-06:0"/>)",
        R"(<prop id="smpi/coll-selector" value="ompi"/>)"})
    EXPECT_NE(xml.find(prop), std::string::npos) << prop;
  // SimGrid reads <config> only before any zone.
  EXPECT_LT(xml.find("<config>"), xml.find("<zone"));
  EXPECT_EQ(platformXml(m, box, router).find("<config>"), std::string::npos);
}

TEST(Platform, RoutesOnTorusAndMeshAxesOfOtherShapes) {
  checkPlatform(testing::simpleMachine({5, 4, 3}, {true, false, true}), "5x4x3", 3000);
  checkPlatform(testing::simpleMachine({2, 6}, {true, true}), "2x6", 500);
}

TEST(Platform, EnginesShareOneInjectionAndOneEjectionLinkPerNode) {
  Machine m = fx10();
  m.injectionEngines = 4;
  m.injectionBandwidth = m.linkBandwidth / 2;  // slower than a link: each message capped
  m.intraNodeBandwidth = 3e10;
  const Box box = makeBox(m, "2x2x2x2x3x2");
  const ParsedPlatform p = parse(platformXml(m, box, Network(m, box)));
  for (int node = 0; node < box.nodeCount; ++node) {
    const std::string host = platformHostName(m, box, node);
    for (const char* end : {":inj", ":ej"}) {
      const ParsedLink& link = p.links.at(host + end);
      EXPECT_DOUBLE_EQ(link.bandwidth, 4 * m.injectionBandwidth);
      EXPECT_EQ(link.sharing, "SHARED");
    }
    EXPECT_DOUBLE_EQ(p.links.at(host + ":loop").bandwidth, 3e10);
  }
  const ParsedLink& cap = p.links.at("engine-cap");
  EXPECT_DOUBLE_EQ(cap.bandwidth, m.injectionBandwidth);
  EXPECT_EQ(cap.sharing, "FATPIPE");
  checkPlatform(m, "1x2x4x2x3x2", 500);

  // Engines at least as fast as a link: no cap; no intra-node bandwidth: the fast loopback.
  m.injectionBandwidth = m.linkBandwidth;
  m.intraNodeBandwidth = 0;
  const ParsedPlatform q = parse(platformXml(m, box, Network(m, box)));
  EXPECT_EQ(q.links.count("engine-cap"), 0u);
  EXPECT_DOUBLE_EQ(q.links.at(platformHostName(m, box, 5) + ":inj").bandwidth, 4 * m.linkBandwidth);
  EXPECT_DOUBLE_EQ(q.links.at(platformHostName(m, box, 5) + ":loop").bandwidth,
                   kFreeIntraNodeBandwidth);
  EXPECT_NE(q.text.find("no intra_node_bandwidth"), std::string::npos);
}

// The machine's in-node figures reach the platform as score and predict use them: the loop
// link of the shipped FX10 file runs at its intra_node_bandwidth, and every route, in a node
// or across the network, pays the per-message start-up latency exactly once (a route's
// latency is the sum of its links'); with equal sharing the network links add none.
TEST(Platform, RoutesPayTheStartUpLatencyOnceAndLoopsRunAtIntraNodeBandwidth) {
  Machine m = fx10();
  ASSERT_GT(m.messageLatency, 0);
  const Box box = makeBox(m, "2x2x2x2x3x2");
  const Network router(m, box);
  const ParsedPlatform p = parse(platformXml(m, box, router));
  EXPECT_NE(p.text.find("message_latency"), std::string::npos);
  Rng rng(3);
  for (int s = 0; s < 300; ++s) {
    const int a = static_cast<int>(rng.below(box.nodeCount));
    const int b = s % 5 == 0 ? a : static_cast<int>(rng.below(box.nodeCount));
    const std::string src = platformHostName(m, box, a), dst = platformHostName(m, box, b);
    double latency = 0;
    for (const std::string& link : p.routes.at({src, dst})) latency += p.links.at(link).latency;
    // Equal sharing (the shipped file's): every route the start-up latency alone.
    const double expected = m.messageLatency;
    EXPECT_NEAR(latency, expected, 1e-18) << src << " -> " << dst;
    if (a == b) {
      EXPECT_DOUBLE_EQ(p.links.at(src + ":loop").bandwidth, 17e9);
    }
  }
  // No message_latency in the machine file: no start-up latency on any route.
  m.messageLatency = 0;
  const ParsedPlatform q = parse(platformXml(m, box, router));
  for (const auto& [id, link] : q.links) {
    const bool nodeLink = id.find(':') != std::string::npos && id.find('+') == std::string::npos &&
                          id.find('-', id.find(':')) == std::string::npos;
    if (nodeLink) {
      EXPECT_EQ(link.latency, 0) << id;
    }
  }
}

TEST(Platform, HostNamesAreBoxCoordinates) {
  const Machine m = fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");
  const std::vector<int> c = {1, 0, 1, 0, 2, 1};
  EXPECT_EQ(platformHostName(m, box, box.nodeAt(c)), "n1-0-1-0-2-1");
}

TEST(Platform, RefusesBoxesWithTooManyRoutes) {
  const Machine m = fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");
  const Network router(m, box);
  try {
    platformXml(m, box, router, nullptr, 96 * 96 - 1);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(m.source), std::string::npos) << message;
    EXPECT_NE(message.find("9216 routes"), std::string::npos) << message;
  }
  EXPECT_NO_THROW(platformXml(m, box, router, nullptr, 96 * 96));
}

TEST(Platform, HostfileLinePerRankOnItsNode) {
  const Machine m = fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");
  for (int slots : {1, 2, 4}) {
    const int tasks = 64;
    const Mapping mapping = randomMapping(tasks, box, 11, slots);
    std::istringstream lines(smpiHostfile(m, box, mapping));
    std::vector<std::string> hosts;
    for (std::string line; std::getline(lines, line);) hosts.push_back(line);
    ASSERT_EQ(static_cast<int>(hosts.size()), tasks);
    std::map<std::string, int> perHost;
    for (int r = 0; r < tasks; ++r) {
      EXPECT_EQ(hosts[r], platformHostName(m, box, mapping.nodeOfTask[r]));
      ++perHost[hosts[r]];
    }
    for (const auto& [host, count] : perHost) EXPECT_LE(count, slots) << host;
  }
  // Block placement with two slots: ranks 2k and 2k+1 share a host.
  const std::string text = smpiHostfile(m, box, identityMapping(8, box, 2));
  std::istringstream lines(text);
  std::vector<std::string> hosts;
  for (std::string line; std::getline(lines, line);) hosts.push_back(line);
  ASSERT_EQ(hosts.size(), 8u);
  for (int r = 0; r < 8; r += 2) EXPECT_EQ(hosts[r], hosts[r + 1]);
  EXPECT_NE(hosts[0], hosts[2]);
}

}  // namespace
}  // namespace tac3map
