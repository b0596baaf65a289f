#include "tac3map/gen/cg_pattern.hpp"

#include <gtest/gtest.h>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

TEST(CgPattern, GridFollowsNpb) {
  EXPECT_EQ(cgGrid(32).rows, 4);
  EXPECT_EQ(cgGrid(32).cols, 8);
  EXPECT_EQ(cgGrid(64).rows, 8);
  EXPECT_EQ(cgGrid(64).cols, 8);
  EXPECT_EQ(cgGrid(2).rows, 1);
  EXPECT_EQ(cgGrid(2).cols, 2);
  EXPECT_THROW(cgGrid(48), InputError);
}

TEST(CgPattern, PartnersArePairings) {
  for (int ranks : {2, 8, 32, 64, 128, 256}) {
    const CgGrid g = cgGrid(ranks);
    int steps = 0;
    while ((1 << steps) < g.cols) ++steps;
    for (int r = 0; r < ranks; ++r) {
      const int t = cgTransposePartner(g, r);
      ASSERT_GE(t, 0);
      ASSERT_LT(t, ranks);
      EXPECT_EQ(cgTransposePartner(g, t), r) << ranks;
      for (int s = 0; s < steps; ++s) {
        const int p = cgRowPartner(g, r, s);
        EXPECT_EQ(p / g.cols, r / g.cols) << "same row";
        EXPECT_EQ(cgRowPartner(g, p, s), r);
        EXPECT_NE(p, r);
      }
    }
  }
}

TEST(CgPattern, FirstRowStepIsHalfTheRowAway) {
  const CgGrid g = cgGrid(64);
  EXPECT_EQ(cgRowPartner(g, 0, 0), 4);
  EXPECT_EQ(cgRowPartner(g, 0, 1), 2);
  EXPECT_EQ(cgRowPartner(g, 0, 2), 1);
  EXPECT_EQ(cgTransposePartner(g, 1), 8);  // row 0 col 1 <-> row 1 col 0
  EXPECT_EQ(cgTransposePartner(cgGrid(32), 2), 8);
}

}  // namespace
}  // namespace tac3map
