#include "tac3map/gen/patterns.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tac3map/io/error.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

CcsSet extract(const std::string& text) {
  return extractCcs(testing::traceFromText(text));
}

// Every message of a stencil goes to the neighbour at one of the stencil's offsets.
void expectStencilNeighbours(const CcsSet& sets, const std::vector<int>& dims, bool periodic,
                             int points) {
  const auto offsets = stencilOffsets(static_cast<int>(dims.size()), points);
  std::set<std::pair<int, int>> expected;
  int ranks = 1;
  for (int d : dims) ranks *= d;
  for (int r = 0; r < ranks; ++r)
    for (const auto& off : offsets) {
      int rest = r, to = 0, stride = 1;
      bool inside = true;
      for (std::size_t a = 0; a < dims.size(); ++a) {
        int c = rest % dims[a] + off[a];
        rest /= dims[a];
        if (c < 0 || c >= dims[a]) {
          inside = periodic;
          c = (c + dims[a]) % dims[a];
        }
        to += c * stride;
        stride *= dims[a];
      }
      if (inside) expected.insert({r, to});
    }
  std::multiset<std::pair<int, int>> got;
  for (const auto& set : sets.sets)
    for (const Communication& c : set) got.insert({c.src, c.dst});
  const std::set<std::pair<int, int>> distinct(got.begin(), got.end());
  EXPECT_EQ(distinct, expected);
}

TEST(Patterns, StencilOffsets) {
  EXPECT_EQ(stencilOffsets(2, 5).size(), 4u);
  EXPECT_EQ(stencilOffsets(2, 9).size(), 8u);
  EXPECT_EQ(stencilOffsets(3, 7).size(), 6u);
  EXPECT_EQ(stencilOffsets(3, 27).size(), 26u);
  EXPECT_EQ(stencilOffsets(3, 7)[0], (std::vector<int>{1, 0, 0}));
  EXPECT_EQ(stencilOffsets(3, 7)[5], (std::vector<int>{0, 0, -1}));
  EXPECT_THROW(stencilOffsets(3, 9), InputError);
}

TEST(Patterns, PeriodicStarStencilGivesOneSetPerDirection) {
  StencilOptions o;
  o.dims = {4, 4, 4};
  o.periodic = true;
  for (ExchangeStyle style : {ExchangeStyle::Isend, ExchangeStyle::Sendrecv}) {
    o.style = style;
    const CcsSet sets = extract(generateStencilTrace(o));
    ASSERT_EQ(sets.sets.size(), 6u);
    for (const auto& set : sets.sets) EXPECT_EQ(set.size(), 64u);
    expectStencilNeighbours(sets, o.dims, true, 7);
  }
}

TEST(Patterns, OpenAndBoxStencilsReachTheRightNeighbours) {
  for (int points : {5, 9})
    for (bool periodic : {false, true}) {
      StencilOptions o;
      o.dims = {5, 3};
      o.points = points;
      o.periodic = periodic;
      expectStencilNeighbours(extract(generateStencilTrace(o)), o.dims, periodic, points);
    }
  StencilOptions box;
  box.dims = {3, 3, 3};
  box.points = 27;
  box.style = ExchangeStyle::Sendrecv;
  expectStencilNeighbours(extract(generateStencilTrace(box)), box.dims, false, 27);
}

TEST(Patterns, AlltoallStaysInsideGroups) {
  AlltoallOptions o;
  o.ranks = 12;
  o.group = 4;
  for (ExchangeStyle style : {ExchangeStyle::Sendrecv, ExchangeStyle::Isend}) {
    o.style = style;
    const CcsSet sets = extract(generateAlltoallTrace(o));
    EXPECT_EQ(sets.sets.size(), 3u);
    EXPECT_EQ(sets.communicationCount(), 12u * 3);
    std::set<std::pair<int, int>> pairs;
    for (const auto& set : sets.sets)
      for (const Communication& c : set) {
        EXPECT_EQ(c.src / 4, c.dst / 4);
        EXPECT_NE(c.src, c.dst);
        pairs.insert({c.src, c.dst});
      }
    EXPECT_EQ(pairs.size(), 36u);  // every ordered pair of a group once
  }
  o.group = 5;
  EXPECT_THROW(generateAlltoallTrace(o), InputError);
}

TEST(Patterns, RandomPatternHasTheDegreeAndSizesAsked) {
  RandomPatternOptions o;
  o.ranks = 40;
  o.degree = 5;
  o.bytes = 100;
  o.maxBytes = 300;
  o.seed = 3;
  const std::string text = generateRandomTrace(o);
  EXPECT_EQ(text, generateRandomTrace(o));
  const CcsSet sets = extract(text);
  std::vector<int> sent(40, 0);
  for (const auto& set : sets.sets)
    for (const Communication& c : set) {
      ++sent[c.src];
      EXPECT_NE(c.src, c.dst);
      EXPECT_GE(c.bytes, 100u);
      EXPECT_LE(c.bytes, 300u);
    }
  for (int n : sent) EXPECT_EQ(n, 5);
  o.seed = 4;
  EXPECT_NE(text, generateRandomTrace(o));
  o.degree = 40;
  EXPECT_THROW(generateRandomTrace(o), InputError);
}

}  // namespace
}  // namespace tac3map
