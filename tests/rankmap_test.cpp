// Rank-map formats: every writer's output reads back as the same mapping (through the
// content-sniffing reader), node tables map machine coordinates into the box, and bad files
// fail with file:line.
#include "tac3map/rankmap.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tac3map/error.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

class RankMap : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tac3map-rankmap-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  // A node table for every node of the box, machine coordinates, hosts "h<node>", logical
  // coordinates (node, 0, 1), lines in reverse node order.
  std::string table(const Machine& machine, const Box& box) {
    std::string text = "# the job's nodes\n";
    for (int node = box.nodeCount - 1; node >= 0; --node) {
      const std::vector<int> c = box.coordinatesOf(node);
      for (int a = 0; a < box.axisCount(); ++a)
        text += std::to_string((c[a] + box.offset[a]) % machine.axes[a].size) + " ";
      text += "host=h" + std::to_string(node) + " logical=" + std::to_string(node) + ",0,1\n";
    }
    return file("nodes.txt", text);
  }
  fs::path dir_;
};

TEST_F(RankMap, EveryFormatReadsBackAsTheSameMapping) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2", "2,0,3,0,0,0");
  const NodeTable nodes = readNodeTable(table(fx10, box), fx10, box);
  ASSERT_EQ(nodes.nodes.front(), box.nodeCount - 1);
  for (int tasks : {64, 96}) {
    const Mapping m = randomMapping(tasks, box, 11);
    for (MapFormat format :
         {MapFormat::Coords, MapFormat::Json, MapFormat::FujitsuVcoord, MapFormat::OpenmpiRankfile,
          MapFormat::SlurmHostfile, MapFormat::CrayRankOrder}) {
      SCOPED_TRACE(std::string(mapFormatName(format)) + " " + std::to_string(tasks));
      if (format == MapFormat::CrayRankOrder && tasks < box.nodeCount) {
        EXPECT_THROW(writeRankMap(format, m, fx10, box, &nodes), InputError);
        continue;
      }
      const std::string path = file("m.txt", writeRankMap(format, m, fx10, box, &nodes));
      EXPECT_EQ(readRankMap(path, fx10, box, tasks, &nodes).nodeOfTask, m.nodeOfTask);
    }
    // Without a table: vcoord uses the Tofu logical view, the rank order the box order.
    const std::string vcoord =
        file("v.txt", writeRankMap(MapFormat::FujitsuVcoord, m, fx10, box, nullptr));
    EXPECT_EQ(readRankMap(vcoord, fx10, box, tasks, nullptr).nodeOfTask, m.nodeOfTask);
    EXPECT_THROW(writeRankMap(MapFormat::SlurmHostfile, m, fx10, box, nullptr), InputError);
  }
}

TEST_F(RankMap, BlueGeneMapfileOnAFiveDimensionalMachine) {
  const Machine bgq = testing::simpleMachine({4, 4, 4, 4, 2}, {true, true, true, true, true});
  const Box box = makeBox(bgq, "2x2x4x4x2");
  const Mapping m = randomMapping(100, box, 3);
  const std::string path =
      file("bgq.map", writeRankMap(MapFormat::BgqMapfile, m, bgq, box, nullptr));
  EXPECT_EQ(readRankMap(path, bgq, box, 100, nullptr).nodeOfTask, m.nodeOfTask);
  const Machine fx10 = testing::fx10();
  EXPECT_THROW(writeRankMap(MapFormat::BgqMapfile, identityMapping(4, makeBox(fx10, "2x2x2x2x3x2")),
                            fx10, makeBox(fx10, "2x2x2x2x3x2"), nullptr),
               InputError);
}

TEST_F(RankMap, BadFilesNameTheLine) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const NodeTable nodes = readNodeTable(table(fx10, box), fx10, box);
  const auto fails = [&](const std::string& text, const std::string& expected, const NodeTable* t) {
    const std::string path = file("bad.map", text);
    try {
      readRankMap(path, fx10, box, 2, t);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  fails("rank 0=h1 slot=0\nrank 0=h2 slot=0\n", "bad.map:2: rank 0 placed twice", &nodes);
  fails("rank 0=h1 slot=0\nrank 1=nowhere slot=0\n", "bad.map:2: host 'nowhere' is not in", &nodes);
  fails("h1\nh1\n", "bad.map:2: rank 1 is on the node of rank 0", &nodes);
  fails("h1\nh2\n", "needs the node table", nullptr);
  fails("(0,0,1)\n(7,7,7)\n", "bad.map:2: no node of the box has logical coordinates (7,7,7)",
        &nodes);
  fails("1,0,5\n", "bad.map:1: rank 5 is outside 0..1", nullptr);
  fails("{\"ranks\": [{\"rank\": 0}]}", "ranks[0]: missing field \"coordinates\"", nullptr);
  fails("h1\n", "rank 1 has no line", &nodes);

  const auto tableFails = [&](const std::string& text, const std::string& expected) {
    try {
      readNodeTable(file("t.txt", text), fx10, box);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  tableFails("0 0 0 0 0 0\n3 0 0 0 0 0 host=x\n", "t.txt:2: node is not in the box");
  tableFails("0 0 0 0 0 0\n0 0 0 0 0 0\n", "t.txt:2: node listed twice (also line 1)");
  tableFails("0 0 0 0 0\n", "t.txt:1: expected 6 machine coordinates");
  tableFails("0 0 0 0 0 0 rack=7\n", "t.txt:1: unexpected 'rack=7'");
}

}  // namespace
}  // namespace tac3map
