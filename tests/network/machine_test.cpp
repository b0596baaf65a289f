#include "tac3map/network/machine.hpp"

#include <gtest/gtest.h>

#include "tac3map/io/error.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

using testing::fx10;
using testing::sourcePath;

TEST(Machine, Fx10MatchesThePaper) {
  const Machine m = fx10();
  ASSERT_EQ(m.axisCount(), 6);
  EXPECT_EQ(m.shapeText(), "4x2x8x2x3x2");
  const std::vector<bool> wraps = {true, true, true, false, true, false};
  for (int a = 0; a < 6; ++a) EXPECT_EQ(m.axes[a].wrap, wraps[a]) << m.axes[a].name;
  // X Y Z A C B
  EXPECT_EQ(m.routingOrder, (std::vector<int>{0, 1, 2, 3, 5, 4}));
  EXPECT_DOUBLE_EQ(m.linkBandwidth, 5e9);
}

TEST(Machine, ShippedMachinesLoad) {
  for (const char* name : {"k-computer", "fugaku", "torus3d-8x8x8"}) {
    const Machine m = loadMachine(sourcePath(std::string("topologies/") + name + ".json"));
    EXPECT_FALSE(m.axes.empty()) << name;
  }
  EXPECT_EQ(loadMachine(sourcePath("topologies/fugaku.json")).shapeText(), "24x23x24x2x3x2");
  EXPECT_EQ(loadMachine(sourcePath("topologies/k-computer.json")).shapeText(), "24x18x17x2x3x2");
}

TEST(Machine, BrokenJsonNamesFileAndLine) {
  try {
    parseMachine("{\n  \"axes\": [\n    {\"name\": \"X\" \"size\": 4}\n  ]\n}", "bad.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.json:3: invalid JSON", 0), 0u) << e.what();
  }
}

TEST(Machine, MissingFieldAndUnknownAxisAreErrors) {
  EXPECT_THROW(parseMachine(R"({"axes":[{"name":"X","size":4}],"routing_order":["X"],
                "link_bandwidth":1,"hop_latency":0})",
                            "m.json"),
               InputError);
  try {
    parseMachine(R"({"axes":[{"name":"X","size":4,"wrap":true}],"routing_order":["Q"],
                "link_bandwidth":1,"hop_latency":0})",
                 "m.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("routing_order[0]: unknown axis 'Q'"), std::string::npos);
  }
}

TEST(Machine, CoresAndSocketsPerNodeAreOptional) {
  // What rank files bind to: the shipped Tofu machines say it, a file without the fields
  // leaves it unknown (0), and a value that is no count is refused naming the field.
  EXPECT_EQ(fx10().coresPerNode, 16);
  EXPECT_EQ(fx10().socketsPerNode, 1);
  EXPECT_EQ(loadMachine(sourcePath("topologies/fugaku.json")).coresPerNode, 48);
  EXPECT_EQ(loadMachine(sourcePath("topologies/k-computer.json")).coresPerNode, 8);
  const std::string base = R"({"axes":[{"name":"X","size":4,"wrap":true}],"routing_order":["X"],)"
                           R"("link_bandwidth":1,"hop_latency":0)";
  const Machine plain = parseMachine(base + "}", "m.json");
  EXPECT_EQ(plain.coresPerNode, 0);
  EXPECT_EQ(plain.socketsPerNode, 0);
  const Machine given =
      parseMachine(base + R"(,"cores_per_node":64,"sockets_per_node":2})", "m.json");
  EXPECT_EQ(given.coresPerNode, 64);
  EXPECT_EQ(given.socketsPerNode, 2);
  try {
    parseMachine(base + R"(,"cores_per_node":0})", "m.json");
    FAIL() << "0 cores accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "m.json: cores_per_node: expected an integer from 1 to 65536, got 0");
  }
  EXPECT_THROW(parseMachine(base + R"(,"sockets_per_node":1.5})", "m.json"), InputError);
}

// The in-node figures: the shipped Tofu machines give both (docs/file-formats.md, where each
// figure's source is), a file without them keeps the defaults (in-node messages free, no
// start-up latency), and a bad value is one error line naming the file and the field.
TEST(Machine, IntraNodeBandwidthAndMessageLatency) {
  EXPECT_DOUBLE_EQ(fx10().intraNodeBandwidth, 17e9);
  EXPECT_DOUBLE_EQ(fx10().messageLatency, 0.9e-6);
  const Machine k = loadMachine(sourcePath("topologies/k-computer.json"));
  EXPECT_DOUBLE_EQ(k.intraNodeBandwidth, 12.8e9);
  EXPECT_DOUBLE_EQ(k.messageLatency, 0.9e-6);
  const Machine fugaku = loadMachine(sourcePath("topologies/fugaku.json"));
  EXPECT_DOUBLE_EQ(fugaku.intraNodeBandwidth, 204e9);
  EXPECT_DOUBLE_EQ(fugaku.messageLatency, 0.49e-6);
  const std::string base = R"({"axes":[{"name":"X","size":4,"wrap":true}],"routing_order":["X"],)"
                           R"("link_bandwidth":1,"hop_latency":0)";
  const Machine plain = parseMachine(base + "}", "m.json");
  EXPECT_EQ(plain.intraNodeBandwidth, 0);
  EXPECT_EQ(plain.messageLatency, 0);
  const Machine given =
      parseMachine(base + R"(,"intra_node_bandwidth":3e10,"message_latency":0})", "m.json");
  EXPECT_DOUBLE_EQ(given.intraNodeBandwidth, 3e10);
  EXPECT_EQ(given.messageLatency, 0);
  const std::pair<const char*, const char*> bad[] = {
      {R"(,"message_latency":-1e-6})", "m.json: message_latency: expected a number >= 0"},
      {R"(,"message_latency":"1us"})", "m.json: message_latency: expected a number >= 0"},
      {R"(,"intra_node_bandwidth":0})", "m.json: intra_node_bandwidth: expected a positive number"},
      {R"(,"intra_node_bandwidth":-5})",
       "m.json: intra_node_bandwidth: expected a positive number"}};
  for (const auto& [field, message] : bad) {
    try {
      parseMachine(base + field, "m.json");
      ADD_FAILURE() << field << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  }
}

TEST(Box, WrapsOnlyWhereItSpansAWrappedAxis) {
  const Machine m = fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");
  EXPECT_EQ(box.nodeCount, 96);
  // X: 2 of 4, Y: 2 of 2 (torus), Z: 2 of 8, A: mesh, B: 3 of 3 (torus), C: mesh.
  EXPECT_EQ(box.wrap, (std::vector<bool>{false, true, false, false, true, false}));
  const Box whole = makeBox(m, "4x2x8x2x3x2");
  EXPECT_EQ(whole.wrap, (std::vector<bool>{true, true, true, false, true, false}));
}

TEST(Box, CoordinatesAreXFastest) {
  const Box box = makeBox(fx10(), "2x2x2x2x3x2");
  EXPECT_EQ(box.coordinatesOf(1), (std::vector<int>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(box.coordinatesOf(2), (std::vector<int>{0, 1, 0, 0, 0, 0}));
  for (int node = 0; node < box.nodeCount; ++node)
    EXPECT_EQ(box.nodeAt(box.coordinatesOf(node)), node);
}

TEST(Box, ShapesThatDoNotFitAreErrors) {
  const Machine m = fx10();
  EXPECT_THROW(makeBox(m, "5x2x8x2x3x2"), InputError);                 // X too long
  EXPECT_THROW(makeBox(m, "2x2x2x2x3"), InputError);                   // too few axes
  EXPECT_THROW(makeBox(m, "2x2x2xZx3x2"), InputError);                 // not a number
  EXPECT_THROW(makeBox(m, "1x1x1x2x3x2", "0,0,0,1,0,0"), InputError);  // A runs off the mesh
  EXPECT_NO_THROW(makeBox(m, "2x2x2x2x3x2", "3,0,7,0,0,0"));           // tori may run over the end
}

// The decisions that depend on the kind of machine (machine.hpp), on a torus and a graph: the
// layers above only call these members.
TEST(Machine, KindDecisionsOnATorus) {
  const Machine m = fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");
  EXPECT_EQ(m.nodeCount(), 4 * 2 * 8 * 2 * 3 * 2);
  EXPECT_FALSE(m.namesNodes());
  EXPECT_EQ(m.hostName(5), "");
  EXPECT_EQ(m.nodeNamed("c0"), -1);
  EXPECT_EQ(m.nodeName(box, 0), "n0-0-0-0-0-0");
  EXPECT_EQ(m.nodeName(box, 1 + 2 * 1 + 16 * 2), "n1-1-0-0-2-0");
  EXPECT_TRUE(m.takesShape());
  EXPECT_EQ(m.nodesText(box), "box 2x2x2x2x3x2 (96 nodes)");
  EXPECT_EQ(m.whyNoAxes(), "");
  EXPECT_EQ(m.whyNotMeshOrTorus(), "");
  EXPECT_EQ(m.boxFor("2x2x2x2x3x2", "1,0,0,0,0,0", false, "need", "hint").offset,
            (std::vector<int>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(m.boxFor("", "", true, "need", "hint").nodeCount, 768);  // a node table picks
  try {
    m.boxFor("", "", false, "--shape is required", "hint");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--shape is required");
  }
}

TEST(Machine, KindDecisionsOnAGraph) {
  const std::string path = sourcePath("topologies/trees/star-8.json");
  const Machine m = loadMachine(path);
  const Box box = makeBox(m, m.shapeText());
  EXPECT_EQ(m.nodeCount(), 8);
  EXPECT_TRUE(m.namesNodes());
  // Box node i is the file's compute node i ("sw", node 0 of the file, is a switch).
  const std::vector<std::string> names{"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"};
  for (int node = 0; node < 8; ++node) {
    EXPECT_EQ(m.hostName(node), names[node]);
    EXPECT_EQ(m.nodeName(box, node), names[node]);
    EXPECT_EQ(m.nodeNamed(names[node]), node);
  }
  EXPECT_EQ(m.nodeNamed("sw"), -1);  // not a compute node
  EXPECT_EQ(m.nodeNamed("c8"), -1);
  EXPECT_FALSE(m.takesShape());
  EXPECT_EQ(m.nodesText(box), "8 compute nodes");
  EXPECT_EQ(m.whyNoAxes(), "a graph machine has no axes");
  EXPECT_EQ(m.whyNotMeshOrTorus(), "the machine is a graph, not a mesh/torus");
  EXPECT_EQ(m.boxFor("", "", false, "need", "hint").nodeCount, 8);
  for (const auto& [shape, offset] : {std::pair<std::string, std::string>{"8", ""}, {"", "0"}})
    try {
      m.boxFor(shape, offset, true, "need", "take every node");
      FAIL();
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), path + " is a graph machine: take every node");
    }
}

}  // namespace
}  // namespace tac3map

namespace tac3map {
namespace {

// Lists of integers (--shape, --offset, --grid) read each item as every integer is read
// (wholeInteger): digits and a leading '-', nothing else, within int's range.
TEST(IntegerList, ReadsWholeIntegersOnly) {
  EXPECT_EQ(parseIntegerList("2x3x-1", 'x', "shape"), (std::vector<int>{2, 3, -1}));
  EXPECT_EQ(parseIntegerList("0,4", ',', "offset"), (std::vector<int>{0, 4}));
  for (const char* bad : {"2x+3", "2x 3", "2x3 ", "2xx3", "2x3a", "2x99999999999", "x2"}) {
    try {
      parseIntegerList(bad, 'x', "shape");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("shape '") + bad + "'"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace tac3map
