// The geometric start (initial/geometric.hpp): process grids detected from patterns, the
// bisection order, and the embedding it gives: on a box whose torus has the grid's extents in
// any order, every stencil message goes one hop.
#include "tac3map/initial/geometric.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/search/random.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

Problem stencilProblem(std::vector<int> dims, int points, bool periodic) {
  StencilOptions o;
  o.dims = std::move(dims);
  o.points = points;
  o.periodic = periodic;
  o.bytes = 4096;
  return makeProblem(extractCcs(testing::traceFromText(generateStencilTrace(o))));
}

TEST(Geometric, DetectsTheGridOfStencilsAndNothingElse) {
  EXPECT_EQ(detectProcessGrid(stencilProblem({12, 12, 8}, 7, true)), (std::vector<int>{12, 12, 8}));
  EXPECT_EQ(detectProcessGrid(stencilProblem({4, 4, 4}, 27, false)), (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(detectProcessGrid(stencilProblem({6, 5}, 9, true)), (std::vector<int>{6, 5}));
  EXPECT_EQ(detectProcessGrid(stencilProblem({3, 3, 3}, 7, true)), (std::vector<int>{3, 3, 3}));
  CgOptions cg;
  cg.ranks = 64;
  EXPECT_FALSE(detectProcessGrid(generateCgProblem(cg)));
  RandomPatternOptions random;
  random.ranks = 64;
  EXPECT_FALSE(detectProcessGrid(
      makeProblem(extractCcs(testing::traceFromText(generateRandomTrace(random))))));
}

// Cells of two grids whose extents are a permutation of each other, taken in bisection order
// side by side, correspond by that permutation of coordinates (also through odd cuts).
TEST(Geometric, BisectionOrdersOfPermutedGridsCorrespondAxisByAxis) {
  Rng rng(3);
  for (int draw = 0; draw < 40; ++draw) {
    std::vector<int> a(2 + rng.below(3));
    for (int& e : a) e = 1 + static_cast<int>(rng.below(7));
    std::vector<int> perm(a.size());
    std::iota(perm.begin(), perm.end(), 0);
    for (std::size_t i = perm.size() - 1; i > 0; --i) std::swap(perm[i], perm[rng.below(i + 1)]);
    std::vector<int> b(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) b[perm[i]] = a[i];
    const std::vector<int> oa = bisectionOrder(a), ob = bisectionOrder(b);
    ASSERT_EQ(oa.size(), ob.size());
    std::vector<int> sorted = oa;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], static_cast<int>(i));
    // Axis k of a is the j-th of its extent in a; it lands on the j-th axis of b of that
    // extent (bisectionOrder breaks ties by whole extent, then index).
    std::vector<int> image(a.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      const auto rank = std::count(a.begin(), a.begin() + static_cast<long>(k), a[k]);
      for (std::size_t m = 0, seen = 0; m < b.size(); ++m)
        if (b[m] == a[k] && seen++ == static_cast<std::size_t>(rank))
          image[k] = static_cast<int>(m);
    }
    const auto coordinates = [](int cell, const std::vector<int>& extents) {
      std::vector<int> c;
      for (int extent : extents) c.push_back(cell % extent), cell /= extent;
      return c;
    };
    for (std::size_t i = 0; i < oa.size(); ++i) {
      const std::vector<int> ca = coordinates(oa[i], a), cb = coordinates(ob[i], b);
      for (std::size_t k = 0; k < a.size(); ++k)
        ASSERT_EQ(cb[image[k]], ca[k]) << "draw " << draw << " cell " << i << " axis " << k;
    }
  }
}

double averageHops(const Problem& p, const Router& router, const Mapping& m) {
  const Scores s = evaluate(p, router, m, 1.0);
  return s.avgHops;
}

TEST(Geometric, EmbedsAGridWhoseShapeTheTorusHasInAnyOrder) {
  const Machine k = loadMachine(testing::sourcePath("topologies/k-computer.json"));
  const Box box = makeBox(k, "4x4x6x2x3x2");  // logical torus 8 x 12 x 12
  const Router router(k, box);
  const auto mapper = makeGeometricMapper();
  for (const std::vector<int>& dims :
       {std::vector<int>{12, 12, 8}, std::vector<int>{8, 12, 12}, std::vector<int>{12, 8, 12}}) {
    const Problem p = stencilProblem(dims, 7, true);
    const Allocation allocation = Allocation::wholeBox(box.nodeCount);
    const StartContext context{k, box, p, router, allocation, {}};
    ASSERT_EQ(mapper->whyNot(context), "");
    const Mapping m = mapper->build(context);
    checkMapping(m, box, "geometric");
    EXPECT_DOUBLE_EQ(averageHops(p, router, m), 1.0) << dims[0] << "x" << dims[1];
  }
  // A plain 3D torus machine, and two ranks per node: pairs of neighbours share a node.
  const Machine torus = loadMachine(testing::sourcePath("topologies/torus3d-8x8x8.json"));
  const Box cube = makeBox(torus, "8x8x8");
  const Router cubeRouter(torus, cube);
  const Problem p = stencilProblem({8, 8, 8}, 7, true);
  const Allocation whole = Allocation::wholeBox(cube.nodeCount);
  EXPECT_DOUBLE_EQ(
      averageHops(p, cubeRouter, mapper->build({torus, cube, p, cubeRouter, whole, {}})), 1.0);
  const Problem twice = stencilProblem({16, 8, 8}, 7, true);
  const Allocation two = Allocation::wholeBox(cube.nodeCount, 2);
  const Mapping m = mapper->build({torus, cube, twice, cubeRouter, two, {}});
  checkMapping(m, cube, "geometric K = 2", 2);
  // K = 2 folds the 16-extent axis into pairs, the 8x8x8 coarse grid lands on the cube: of a
  // rank's six messages, one goes to its pair on the same node, five go one hop.
  EXPECT_DOUBLE_EQ(averageHops(twice, cubeRouter, m), 5.0 / 6.0);
}

TEST(Geometric, SaysWhyItDoesNotApply) {
  const Machine k = loadMachine(testing::sourcePath("topologies/k-computer.json"));
  const Box box = makeBox(k, "4x4x6x2x3x2");
  const Router router(k, box);
  const auto mapper = makeGeometricMapper();
  CgOptions cg;
  cg.ranks = 64;
  const Problem p = generateCgProblem(cg);
  const Allocation whole = Allocation::wholeBox(box.nodeCount);
  EXPECT_EQ(mapper->whyNot({k, box, p, router, whole, {}}), "the ranks do not form a process grid");
  EXPECT_EQ(mapper->whyNot({k, box, p, router, whole, {8, 8}}), "");
  EXPECT_EQ(mapper->whyNot({k, box, p, router, whole, {8, 9}}),
            "--grid does not have one cell per rank");
  const Allocation table = Allocation::ofNodes({0, 5, 9}, box.nodeCount, 32);
  EXPECT_EQ(mapper->whyNot({k, box, p, router, table, {8, 8}}),
            "the job is a node table, not a box");
}

}  // namespace
}  // namespace tac3map
