// Scotch mapping and target files: the targets tac3map writes are read by libscotch itself with
// the same terminals and distances as tac3map's network (so a Scotch part names the node
// tac3map means), every target form tac3map reads places parts on the documented nodes, and
// bad files fail with file:line.
#include "tac3map/mapping/scotch_files.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
// clang-format off: scotch.h needs FILE and the fixed-width integer types declared first.
#include <scotch/scotch.h>
// clang-format on

#include "tac3map/io/error.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/network/tofu_view.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

class ScotchFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("tac3map-scotch-") + info->name() + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  // The message of the InputError `f` throws, less this test's folder ("" if none).
  template <class F>
  std::string errorOf(F f) {
    try {
      f();
    } catch (const InputError& e) {
      std::string message = e.what();
      const std::string folder = dir_.string() + "/";
      for (std::size_t at; (at = message.find(folder)) != std::string::npos;)
        message.erase(at, folder.size());
      return message;
    }
    return "";
  }
  std::vector<int> partNodes(const std::string& target, const Machine& machine, const Box& box,
                             const NodeTable* table = nullptr) {
    return scotchPartNodes(readScotchTarget(file("t.tgt", target)), machine, box, table);
  }
  fs::path dir_;
};

// libscotch's reading of a target file: its terminal count and the distance between terminals.
struct ScotchArch {
  explicit ScotchArch(const std::string& path) {
    SCOTCH_archInit(&arch);
    FILE* f = std::fopen(path.c_str(), "r");
    loaded = f && SCOTCH_archLoad(&arch, f) == 0;
    if (f) std::fclose(f);
  }
  ~ScotchArch() { SCOTCH_archExit(&arch); }
  long long size() { return static_cast<long long>(SCOTCH_archSize(&arch)); }
  long long distance(int p, int q) {
    SCOTCH_ArchDom a, b;
    SCOTCH_archDomTerm(&arch, &a, p);
    SCOTCH_archDomTerm(&arch, &b, q);
    return static_cast<long long>(SCOTCH_archDomDist(&arch, &a, &b));
  }
  SCOTCH_Arch arch;
  bool loaded = false;
};

TEST_F(ScotchFiles, WrittenTargetsAreScotchsOwnNumberingOfTheNetwork) {
  struct Case {
    const char* what;
    Machine machine;
    const char* shape;
    const char* header;
    bool exactDistances;  // a torus or mesh of the box's own axes: Scotch's distance = hops
  };
  const Case cases[] = {
      {"torus", testing::simpleMachine({4, 3, 2}, {true, true, true}), "4x3x2", "torus3D 4 3 2",
       true},
      {"mesh", testing::simpleMachine({4, 3, 5}, {false, false, false}), "4x3x5", "mesh3D 4 3 5",
       true},
      {"ring", testing::simpleMachine({7}, {true}), "7", "torus2D 7 1", true},
      {"2D mesh", testing::simpleMachine({5, 3}, {false, false}), "5x3", "mesh2D 5 3", true},
      {"5D torus", testing::simpleMachine({2, 2, 3, 2, 3}, {true, true, true, true, true}),
       "2x2x3x2x3", "torusXD 5 2 2 3 2 3", true},
      // Tofu: the logical 3D torus (X·A, Y·B, Z·C), as --init graph maps onto.
      {"fx10", testing::fx10(), "2x2x2x2x3x2", nullptr, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const Box box = makeBox(c.machine, c.shape);
    const ScotchTargetText written = scotchTargetFor(c.machine, box, nullptr);
    std::string header = c.header ? c.header : "";
    if (!c.header) {  // Tofu's logical torus, from its own view
      const LogicalTorus view = tofuLogicalTorus(c.machine, box);
      const bool closed = view.closed[0] && view.closed[1] && view.closed[2];
      header = std::string(closed ? "torus3D " : "mesh3D ") + std::to_string(view.size[0]) + " " +
               std::to_string(view.size[1]) + " " + std::to_string(view.size[2]);
    }
    EXPECT_EQ(written.text, header + "\n");
    const std::string path = file("w.tgt", written.text);
    const std::vector<int> nodes = scotchPartNodes(readScotchTarget(path), c.machine, box, nullptr);
    ASSERT_EQ(static_cast<int>(nodes.size()), box.nodeCount);
    for (int node = 0; node < box.nodeCount; ++node)
      EXPECT_EQ(nodes[written.partOfNode[node]], node);
    ScotchArch scotch(path);
    ASSERT_TRUE(scotch.loaded);
    ASSERT_EQ(scotch.size(), box.nodeCount);
    const Network network(c.machine, box);
    for (int p = 0; p < box.nodeCount; ++p)
      for (int q = 0; q < box.nodeCount; ++q) {
        const long long hops = network.hops(nodes[p], nodes[q]);
        if (c.exactDistances) {
          ASSERT_EQ(scotch.distance(p, q), hops) << "parts " << p << " " << q;
        } else if (scotch.distance(p, q) == 1) {  // Scotch's neighbours are the network's
          ASSERT_EQ(hops, 1) << "parts " << p << " " << q;
        }
      }
  }
}

TEST_F(ScotchFiles, GridPartsFollowScotchsLabelsDimensionZeroFastest) {
  // Scotch's manual: torus3D X Y Z labels (x, y, z) as x + y X + z X Y; tac3map's box axes in
  // machine order. A mixed-wrap box is still numbered so; torus2D on a 2D box, sub on top.
  const Machine machine = testing::simpleMachine({4, 3, 2}, {false, true, true});
  const Box box = makeBox(machine, "4x3x2");
  for (const char* target : {"torus3D 4 3 2", "mesh3D 4 3 2", "torusXD 3 4 3 2"}) {
    const std::vector<int> nodes = partNodes(target, machine, box);
    for (int p = 0; p < 24; ++p)
      EXPECT_EQ(box.coordinatesOf(nodes[p]), (std::vector<int>{p % 4, p / 4 % 3, p / 12}))
          << target << " part " << p;
  }
  const Machine flat = testing::simpleMachine({4, 3}, {true, true});
  const Box plane = makeBox(flat, "4x3");
  // Figure 9 of Scotch's manual: sub 5 0 4 1 5 7 of mesh2D 4 2; here of torus2D 4 3.
  const std::vector<int> sub = partNodes("sub 5 0 4 1 5 7\ntorus2D 4 3\n", flat, plane);
  EXPECT_EQ(sub, (std::vector<int>{plane.nodeAt({0, 0}), plane.nodeAt({0, 1}), plane.nodeAt({1, 0}),
                                   plane.nodeAt({1, 1}), plane.nodeAt({3, 1})}));
  ScotchArch scotch(file("sub.tgt", "sub 5 0 4 1 5 7\ntorus2D 4 3\n"));
  ASSERT_TRUE(scotch.loaded);
  EXPECT_EQ(scotch.size(), 5);
  const Network network(flat, plane);
  for (int p = 0; p < 5; ++p)
    for (int q = 0; q < 5; ++q) EXPECT_EQ(scotch.distance(p, q), network.hops(sub[p], sub[q]));
}

TEST_F(ScotchFiles, CompleteTreeAndDecoTargets) {
  const Machine machine = testing::simpleMachine({3, 2}, {false, false});
  const Box box = makeBox(machine, "3x2");
  // cmplt, cmpltw, tleaf: the job's p-th node (box order, or the node table's).
  EXPECT_EQ(partNodes("cmplt 4", machine, box), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(partNodes("cmpltw 3 1 2 3", machine, box), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(partNodes("tleaf 2 2 10 3 1", machine, box), (std::vector<int>{0, 1, 2, 3, 4, 5}));
  const std::string tablePath = file("nodes.txt", "2 1\n0 0\n1 1\n");
  const NodeTable table = readNodeTable(tablePath, machine, box);
  EXPECT_EQ(partNodes("cmplt 3", machine, box, &table),
            (std::vector<int>{box.nodeAt({2, 1}), box.nodeAt({0, 0}), box.nodeAt({1, 1})}));
  // deco 0 (Scotch's manual's layout: label weight terminal; distances) and deco 1 (amk_grf's
  // output for a path of 4 vertices): the terminal labelled p is box node p.
  EXPECT_EQ(partNodes("deco 0\n3 5\n2 1 4\n0 1 5\n1 1 3\n1\n2 1\n", machine, box),
            (std::vector<int>{0, 1, 2}));
  const std::string deco1 =
      "deco\n1\n4\t7\n0\t4\t4\n0\t2\t2\n2\t2\t2\n0\t1\t1\n1\t1\t1\n2\t1\t1\n3\t1\t1\n"
      "2\t2\t2\t2\t1\t3\t2\t1\n2\t1\t2\t2\t1\t2\t1\t2\n3\t1\t3\t2\t1\t\n";
  EXPECT_EQ(partNodes(deco1, machine, box), (std::vector<int>{0, 1, 2, 3}));
  // libscotch reads every one of them with the terminal count tac3map reads.
  for (const std::string& target :
       {std::string("cmpltw 3 1 2 3"), std::string("tleaf 2 2 10 3 1"),
        std::string("deco 0\n3 5\n2 1 4\n0 1 5\n1 1 3\n1\n2 1\n"), deco1}) {
    const std::string path = file("s.tgt", target);
    ScotchArch scotch(path);
    ASSERT_TRUE(scotch.loaded) << target;
    EXPECT_EQ(scotch.size(), readScotchTarget(path).parts) << target;
  }
}

TEST_F(ScotchFiles, BadTargetsNameTheFileAndLine) {
  const Machine machine = testing::simpleMachine({4, 3, 2}, {true, true, true});
  const Box box = makeBox(machine, "4x3x2");
  const auto error = [&](const std::string& text) {
    return errorOf([&] { partNodes(text, machine, box); });
  };
  EXPECT_EQ(error("torus 4 3 2"),
            "t.tgt:1: unknown Scotch architecture 'torus' (expected cmplt, cmpltw, tleaf, mesh2D, "
            "mesh3D, meshXD, torus2D, torus3D, torusXD, deco or sub)");
  EXPECT_EQ(error("\nhcub 3"),
            "t.tgt:2: Scotch architecture 'hcub' is not read (its terminals "
            "are no nodes tac3map can name); use cmplt, cmpltw, tleaf, "
            "mesh2D/3D/XD, torus2D/3D/XD, deco 0/1 or sub");
  EXPECT_EQ(error("torus3D 4\nx 2"), "t.tgt:2: expected torus3D's extent of dimension 1, got 'x'");
  EXPECT_EQ(error("torusXD 6 2 2 2 2 3 2"), "t.tgt:1: torusXD's dimension count 6 is outside 1..5");
  EXPECT_EQ(error("torus3D 4 4 4"),
            "t.tgt:1: torus3D 4x4x4 does not match the job's torus 4x3x2 (the box's axes, or on "
            "Tofu its logical 3D torus, dimension 0 fastest)");
  EXPECT_EQ(error("cmplt 25"),
            "t.tgt:1: cmplt has 25 terminals, more than the job's 24 nodes "
            "(terminal p is the job's p-th node)");
  EXPECT_EQ(error("sub 2 0\n24 torus3D 4 3 2"), "t.tgt:2: terminal 24 is not one of torus3D's 24");
  EXPECT_EQ(
      error("deco 2 4"),
      "t.tgt:1: deco 2 targets are not read (write a deco 0 or 1 target: amk_grf without -2)");
  EXPECT_EQ(error("cmplt 4 cmplt 2"), "t.tgt:1: unexpected 'cmplt' after the architecture");
  EXPECT_EQ(error("torus3D 4 3"),
            "t.tgt:1: the file ends where torus3D's extent of dimension 2 "
            "should be");
  EXPECT_EQ(error("deco 0\n2 3\n0 1 2\n0 1 3\n1\n"), "t.tgt:4: label 0 given twice (also line 3)");
}

TEST_F(ScotchFiles, MappingFilesReadAndBadOnesNameTheLine) {
  const Machine machine = testing::simpleMachine({4}, {false});
  const Box box = makeBox(machine, "4");
  const std::vector<int> nodeOfPart = {3, 2, 1, 0};  // any permutation
  const auto read = [&](const std::string& text, int tasks = -1, int slots = 1) {
    return readScotchMapping(file("m.map", text), nodeOfPart, box, tasks, slots);
  };
  EXPECT_EQ(read("4\n0 3\n1 2\n2\t1\n3 0\n").nodeOfTask, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(read("4\n3 0\n1 2\n0 3\n2 1\n").nodeOfTask, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(read("4\n1 3\n2 2\n3 1\n4 0\n").nodeOfTask, (std::vector<int>{0, 1, 2, 3}))
      << "labels 1..n: a graph with base 1";
  EXPECT_EQ(read("4\n0 1\n1 2\n2 1\n3 1\n", 2).nodeOfTask, (std::vector<int>{2, 1}))
      << "vertices beyond --ranks are padding";
  const Mapping two = read("3\n0 1\n1 1\n2 0\n", -1, 2);
  EXPECT_EQ(two.nodeOfTask, (std::vector<int>{2, 2, 3}));
  EXPECT_EQ(two.slotOfTask, (std::vector<int>{0, 1, 0})) << "lowest free slot, in file order";
  const auto error = [&](const std::string& text) { return errorOf([&] { read(text); }); };
  EXPECT_EQ(error("4\n0 1\n1 2\n0 3\n3 0\n"), "m.map:4: vertex 0 listed twice (also line 2)");
  EXPECT_EQ(error("4\n0 1\n1 2\n3 0\n"),
            "m.map:1: vertex 2 has no mapping line (4 vertices, 3 lines)");
  EXPECT_EQ(error("2\n0 1\n1 0\n2 2\n"),
            "m.map:4: more mapping lines than the 2 vertices of line 1");
  EXPECT_EQ(error("2\n0 9\n1 0\n"),
            "m.map:2: part 9 is not a terminal of the target (4 terminals)");
  EXPECT_EQ(error("2\n0 1\n1 1\n"), "m.map:3: rank 1 is on the node of rank 0");
  EXPECT_EQ(error("2\n0 1\n5 0\n"), "m.map:3: vertex 5 is outside 0..1 (the count on line 1 is 2)");
  EXPECT_EQ(error("2\n0 a\n"), "m.map:2: expected '<vertex> <part>' (two integers)");
  EXPECT_EQ(error("zero\n"),
            "m.map:1: expected the vertex count (a Scotch mapping starts with it)");
  EXPECT_TRUE(isScotchMapping(file("a.map", "3\n0 1\n1 2\n2 0\n")));
  EXPECT_FALSE(isScotchMapping(file("b.map", "0,1,2\n"))) << "a Cray rank order";
  EXPECT_FALSE(isScotchMapping(file("c.map", "h1\nh2\n"))) << "a Slurm host file";
  EXPECT_FALSE(isScotchMapping(file("d.map", "3\n0 1 2\n"))) << "three numbers a line";
}

TEST_F(ScotchFiles, WrittenMappingsReadBackToTheSameNodesAndSlots) {
  const Machine machine = testing::simpleMachine({4, 3, 2}, {true, false, true});
  const Box box = makeBox(machine, "4x3x2");
  for (int slots : {1, 2, 3})
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      SCOPED_TRACE("K " + std::to_string(slots) + " seed " + std::to_string(seed));
      const int tasks = box.nodeCount * slots - static_cast<int>(seed);
      Mapping m = randomMapping(tasks, box, seed, slots);
      // Scotch carries no slot: a node's ranks read back in slots 0, 1, ... in rank order, so
      // give them that order to compare exactly.
      if (slots > 1) {
        std::vector<int> used(box.nodeCount, 0);
        for (int t = 0; t < tasks; ++t) m.slotOfTask[t] = used[m.nodeOfTask[t]]++;
      }
      const ScotchTargetText target = scotchTargetFor(machine, box, nullptr);
      const std::vector<int> nodes =
          scotchPartNodes(readScotchTarget(file("w.tgt", target.text)), machine, box, nullptr);
      const Mapping back = readScotchMapping(file("w.map", scotchMappingText(m, target.partOfNode)),
                                             nodes, box, -1, slots);
      EXPECT_EQ(back.nodeOfTask, m.nodeOfTask);
      EXPECT_EQ(back.slotOfTask, m.slotOfTask);
    }
}

}  // namespace
}  // namespace tac3map
