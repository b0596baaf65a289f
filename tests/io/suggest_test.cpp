// "Did you mean": distances and the suggestions the command line and sweep specs make.
#include "tac3map/io/suggest.hpp"

#include <gtest/gtest.h>

namespace tac3map {
namespace {

TEST(Suggest, EditDistanceCountsInsertionsDeletionsReplacementsAndSwaps) {
  EXPECT_EQ(editDistance("", ""), 0);
  EXPECT_EQ(editDistance("", "map"), 3);
  EXPECT_EQ(editDistance("seed", "seeds"), 1);       // insertion
  EXPECT_EQ(editDistance("seeds", "seed"), 1);       // deletion
  EXPECT_EQ(editDistance("--shape", "--shope"), 1);  // replacement
  EXPECT_EQ(editDistance("mpa", "map"), 1);          // neighbours swapped
  EXPECT_EQ(editDistance("kitten", "sitting"), 3);
  EXPECT_EQ(editDistance("score", "sweep"), 4);
}

TEST(Suggest, EditDistanceIsSymmetricAndATriangle) {
  const std::vector<std::string> words{"map",   "score", "sweep",   "predict",
                                       "seeds", "seed",  "--trace", "--trace-format",
                                       "",      "ab",    "ba"};
  for (const std::string& a : words)
    for (const std::string& b : words) {
      EXPECT_EQ(editDistance(a, b), editDistance(b, a)) << a << " " << b;
      EXPECT_EQ(editDistance(a, b) == 0, a == b);
      EXPECT_LE(editDistance(a, b), static_cast<int>(std::max(a.size(), b.size())));
    }
}

TEST(Suggest, SuggestsOnlyNamesThatAreClose) {
  const std::vector<std::string> commands{"map", "score",    "predict", "viz",   "sweep",   "ccs",
                                          "gen", "platform", "convert", "bcast", "topology"};
  EXPECT_EQ(closestName("mpa", commands), "map");
  EXPECT_EQ(closestName("scroe", commands), "score");
  EXPECT_EQ(closestName("predcit", commands), "predict");
  EXPECT_EQ(closestName("topo", commands), "topology");  // the one name it starts
  EXPECT_EQ(closestName("frobnicate", commands), "");
  EXPECT_EQ(closestName("xyz", commands), "");
  EXPECT_EQ(didYouMean("seed", {"traces", "seeds", "schedules"}), " (did you mean 'seeds'?)");
  EXPECT_EQ(didYouMean("colour", {"traces", "seeds"}), "");
}

}  // namespace
}  // namespace tac3map
