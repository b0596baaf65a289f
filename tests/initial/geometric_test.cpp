// The geometric start (initial/geometric.hpp): process grids detected from patterns, the
// bisection order, and the embedding it gives: on a box whose torus has the grid's extents in
// any order, every stencil message goes one hop.
#include "tac3map/initial/geometric.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tac3map/base/random.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/objective.hpp"
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

double averageHops(const Problem& p, const Network& router, const Mapping& m);

// A periodic stencil on a torus machine whose extents are the grid's in any order (odd and
// even, so that uneven halves occur): the geometric map puts every message one hop away.
TEST(Geometric, EmbedsPermutedShapesOneHopApart) {
  Rng rng(3);
  const auto mapper = makeGeometricMapper();
  for (int draw = 0; draw < 24; ++draw) {
    std::vector<int> grid(2 + rng.below(2));
    for (int& e : grid) e = 3 + static_cast<int>(rng.below(5));
    std::vector<int> torus = grid;
    for (std::size_t i = torus.size() - 1; i > 0; --i) std::swap(torus[i], torus[rng.below(i + 1)]);
    const Machine machine = testing::simpleMachine(torus, std::vector<bool>(torus.size(), true));
    std::string shape;
    for (int e : torus) {
      if (!shape.empty()) shape += 'x';
      shape += std::to_string(e);
    }
    const Box box = makeBox(machine, shape);
    const Network router(machine, box);
    const Problem p = stencilProblem(grid, grid.size() == 2 ? 5 : 7, true);
    const Allocation whole = Allocation::wholeBox(box.nodeCount);
    const Mapping m = mapper->build({machine, box, p, router, whole, {}});
    checkMapping(m, box, "geometric");
    EXPECT_DOUBLE_EQ(averageHops(p, router, m), 1.0)
        << "grid " << grid[0] << "x" << grid[1] << " on " << shape;
  }
}

double averageHops(const Problem& p, const Network& router, const Mapping& m) {
  const Scores s = evaluate(p, router, m, 1.0);
  return s.avgHops;
}

TEST(Geometric, EmbedsAGridWhoseShapeTheTorusHasInAnyOrder) {
  const Machine k = loadMachine(testing::sourcePath("topologies/k-computer.json"));
  const Box box = makeBox(k, "4x4x6x2x3x2");  // logical torus 8 x 12 x 12
  const Network router(k, box);
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
  const Network cubeRouter(torus, cube);
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
  const Network router(k, box);
  const auto mapper = makeGeometricMapper();
  CgOptions cg;
  cg.ranks = 64;
  const Problem p = generateCgProblem(cg);
  const Allocation whole = Allocation::wholeBox(box.nodeCount);
  EXPECT_EQ(mapper->whyNot({k, box, p, router, whole, {}}), "the ranks do not form a process grid");
  EXPECT_EQ(mapper->whyNot({k, box, p, router, whole, {8, 8}}), "");
  EXPECT_EQ(mapper->whyNot({k, box, p, router, whole, {8, 9}}),
            settingName("grid") + " does not have one cell per rank");
  const Allocation table = Allocation::ofNodes({0, 5, 9}, box.nodeCount, 32);
  EXPECT_EQ(mapper->whyNot({k, box, p, router, table, {8, 8}}),
            "the job is a node table, not a box");
}

}  // namespace
}  // namespace tac3map
