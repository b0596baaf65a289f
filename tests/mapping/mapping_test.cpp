#include "tac3map/mapping/mapping.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tac3map/io/error.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

class MappingFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("tac3map-mapping-") + info->name() + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& text) {
    const std::string path = (dir_ / "m.map").string();
    std::ofstream(path) << text;
    return path;
  }
  std::string errorOf(const std::string& text, const Box& box, int tasks, int slotsPerNode = 1) {
    try {
      readMapping(write(text), box, tasks, slotsPerNode);
    } catch (const InputError& e) {
      return std::string(e.what()).substr((dir_ / "m.map").string().size());
    }
    return "";
  }
  std::filesystem::path dir_;
};

TEST_F(MappingFile, RoundTrip) {
  const Machine m = testing::fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");
  for (std::uint64_t seed : {1, 2, 3}) {
    const Mapping original = randomMapping(64, box, seed);
    checkMapping(original, box, "random");
    const Mapping back = readMapping(write(formatMapping(original, m, box)), box, 64);
    EXPECT_EQ(back.nodeOfTask, original.nodeOfTask);
  }
}

TEST_F(MappingFile, IdentityIsXFastest) {
  const Box box = makeBox(testing::fx10(), "2x2x2x2x3x2");
  const Mapping id = identityMapping(5, box);
  EXPECT_EQ(id.nodeOfTask, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_THROW(identityMapping(97, box), InputError);
}

TEST_F(MappingFile, RandomDependsOnSeedOnly) {
  const Box box = makeBox(testing::fx10(), "2x2x2x2x3x2");
  EXPECT_EQ(randomMapping(64, box, 5).nodeOfTask, randomMapping(64, box, 5).nodeOfTask);
  EXPECT_NE(randomMapping(64, box, 5).nodeOfTask, randomMapping(64, box, 6).nodeOfTask);
}

TEST_F(MappingFile, BadFilesNameTheLine) {
  const Machine m = testing::simpleMachine({4}, {false});
  const Box box = makeBox(m, "4");
  const std::string h = "# tac3map mapping 1\n";
  EXPECT_EQ(errorOf(h + "0 0\n1 0\n", box, 2), ":3: rank 1 is on the node of rank 0");
  EXPECT_EQ(errorOf(h + "0 0\n0 1\n", box, 2), ":3: rank 0 placed twice (also line 2)");
  EXPECT_EQ(errorOf(h + "0 0\n2 1\n", box, 2), ":3: rank 2 is outside 0..1");
  EXPECT_EQ(errorOf(h + "0 0\n1 4\n", box, 2), ":3: coordinate 4 of axis 0 is outside the box 4");
  EXPECT_EQ(errorOf(h + "0 0\n", box, 2), ": rank 1 has no line");
  EXPECT_EQ(errorOf(h + "0 0 0 0\n", box, 1),
            ":2: expected '<rank>', 1 coordinates and an optional slot");
  EXPECT_EQ(errorOf("0 0\n", box, 1), ":1: expected the header '# tac3map mapping 1'");
}

TEST_F(MappingFile, SlotColumnRoundTrips) {
  const Machine m = testing::fx10();
  const Box box = makeBox(m, "2x2x2x2x3x2");
  for (int k : {2, 4})
    for (int tasks : {96 * k, 50 * k + 1}) {
      SCOPED_TRACE(std::to_string(k) + " slots, " + std::to_string(tasks) + " tasks");
      const Mapping original = randomMapping(tasks, box, 7 + k, k);
      ASSERT_EQ(original.slotOfTask.size(), static_cast<std::size_t>(tasks));
      const std::string text = formatMapping(original, m, box, k);
      EXPECT_NE(text.find("# rank X Y Z A B C slot"), std::string::npos);
      EXPECT_NE(text.find("\n# ranks-per-node " + std::to_string(k) + "\n"), std::string::npos);
      const Mapping back = readMapping(write(text), box, tasks, k);
      EXPECT_EQ(back.nodeOfTask, original.nodeOfTask);
      EXPECT_EQ(back.slotOfTask, original.slotOfTask);
      // One slot fewer per node than the mapping uses somewhere: refused.
      EXPECT_THROW(readMapping(write(text), box, tasks, k - 1), InputError);
    }
}

TEST_F(MappingFile, MissingSlotTakesTheLowestFreeSlot) {
  const Box box = makeBox(testing::simpleMachine({4}, {false}), "4");
  const std::string h = "# tac3map mapping 1\n";
  // rank 0 names slot 1 of node 0; rank 1, without a slot, takes node 0's lowest free slot
  // (0); rank 2 is alone on node 1.
  const Mapping m = readMapping(write(h + "0 0 1\n1 0\n2 1\n"), box, 3, 2);
  EXPECT_EQ(m.nodeOfTask, (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(m.slotOfTask, (std::vector<int>{1, 0, 0}));
  // In file order: rank 0 names slot 0, rank 1 takes the lowest free (1), rank 2 names 3,
  // rank 3 takes the lowest free (2).
  const Mapping mixed = readMapping(write(h + "0 2 0\n1 2\n2 2 3\n3 2\n"), box, 4, 4);
  EXPECT_EQ(mixed.nodeOfTask, (std::vector<int>{2, 2, 2, 2}));
  EXPECT_EQ(mixed.slotOfTask, (std::vector<int>{0, 1, 3, 2}));
}

TEST_F(MappingFile, SlotErrorsNameTheLine) {
  const Box box = makeBox(testing::simpleMachine({4}, {false}), "4");
  const std::string h = "# tac3map mapping 1\n";
  EXPECT_EQ(errorOf(h + "0 0 2\n", box, 1, 2),
            ":2: rank 0: slot 2 is outside 0..1 (ranks per node 2)");
  EXPECT_EQ(errorOf(h + "0 0 1\n1 0 1\n", box, 2, 2),
            ":3: rank 1 is in slot 1 of the node of rank 0");
  EXPECT_EQ(errorOf(h + "0 0\n1 0\n2 0\n", box, 3, 2),
            ":4: rank 2: its node already holds 2 ranks (ranks per node 2), e.g. rank 0");
  EXPECT_EQ(errorOf(h + "0 0 -1\n", box, 1, 2), ":2: slot -1 is negative");
  // A line without a slot takes the lowest free one at once; a later line cannot claim it.
  EXPECT_EQ(errorOf(h + "1 2\n0 2 0\n", box, 2, 2),
            ":3: rank 0 is in slot 0 of the node of rank 1");
  // One rank per node: a slot column may only say 0.
  EXPECT_EQ(errorOf(h + "0 0 1\n", box, 1),
            ":2: rank 0: slot 1 is outside 0..0 (ranks per node 1)");
  EXPECT_EQ(errorOf(h + "0 0 0\n1 0\n", box, 2), ":3: rank 1 is on the node of rank 0");
}

}  // namespace
}  // namespace tac3map
