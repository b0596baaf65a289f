// The node-fold start (src/initial/node_fold.cpp): with K ranks per node, blocks of K grid
// cells folded onto the box. On issue 24's full-node stencils it is valid, fills every slot,
// puts every pair of neighbouring blocks one hop apart, and beats the geometric start and the
// launcher's placements under tac3; it says why it does not apply elsewhere.
#include <gtest/gtest.h>

#include <set>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/objective.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

Problem packedStencil(const Machine& machine, int k) {
  StencilOptions o;
  o.dims = {8, 4, 4};
  o.periodic = true;
  o.bytes = 262144;
  const Model model = makeModel(machine, 0, k);
  CcsOptions options;
  options.engines = model.engines;
  return makeProblem(extractCcs(testing::traceFromText(generateStencilTrace(o)), options), model);
}

struct Case {
  const char* shape;
  int k;
};

// Issue 24's measured cases: 128 ranks on 32 nodes (K = 4) and on 64 nodes (K = 2).
TEST(NodeFold, FillsFullNodesWithNeighbouringBlocksOneHopApart) {
  const Machine fx10 = testing::fx10();
  const auto fold = makeNodeFoldMapper();
  const auto geometric = makeGeometricMapper();
  for (const Case& c : {Case{"1x1x8x2x1x2", 4}, Case{"2x1x8x2x1x2", 2}}) {
    SCOPED_TRACE(c.shape);
    const Box box = makeBox(fx10, c.shape);
    const Network router(fx10, box);
    const Problem p = packedStencil(fx10, c.k);
    const Allocation whole = Allocation::wholeBox(box.nodeCount, c.k);
    ASSERT_EQ(p.tasks, box.nodeCount * c.k);
    const StartContext context{fx10, box, p, router, whole, {}};
    ASSERT_EQ(fold->whyNot(context), "");
    const Mapping m = fold->build(context);
    checkMapping(m, box, "node-fold", c.k);
    std::set<std::pair<int, int>> places;
    for (int t = 0; t < p.tasks; ++t) places.insert({m.nodeOfTask[t], m.slotOf(t)});
    EXPECT_EQ(static_cast<int>(places.size()), p.tasks);  // every slot used once
    // A message leaves its node for a neighbouring node at most: the blocks are folded.
    for (std::size_t i = 0; i < p.realCommunications; ++i)
      EXPECT_LE(router.hops(m.nodeOfTask[p.src[i]], m.nodeOfTask[p.dst[i]]), 1);
    EXPECT_EQ(fold->build(context).nodeOfTask, m.nodeOfTask);
    EXPECT_EQ(fold->build(context).slotOfTask, m.slotOfTask);
    // Better than the geometric start (its one block shape does not fold on the K = 4 box)
    // and than block and round-robin placement.
    const ExactScores scores = evaluateExact(p, router, m);
    for (const Mapping& other :
         {geometric->build(context), whole.block(p.tasks), whole.roundRobin(p.tasks)})
      EXPECT_LT(scores.tac3ByteCounts, evaluateExact(p, router, other).tac3ByteCounts);
  }
}

TEST(NodeFold, SaysWhyItDoesNotApply) {
  const Machine fx10 = testing::fx10();
  const auto fold = makeNodeFoldMapper();
  const Box box = makeBox(fx10, "1x1x8x2x1x2");
  const Network router(fx10, box);
  const Problem stencil = packedStencil(fx10, 4);
  EXPECT_EQ(fold->whyNot({fx10, box, stencil, router, Allocation::wholeBox(box.nodeCount, 1), {}})
                .rfind("one rank per node", 0),
            0u);
  CgOptions cg;
  cg.ranks = 128;
  EXPECT_EQ(fold->whyNot({fx10, box, generateCgProblem(cg), router,
                          Allocation::wholeBox(box.nodeCount, 4), {}}),
            "the ranks do not form a process grid");
  const Allocation table = Allocation::ofNodes({0, 1}, box.nodeCount, 64);
  EXPECT_EQ(fold->whyNot({fx10, box, stencil, router, table, {}}),
            "the job is a node table, not a box");
  // Eleven ranks per node: no block of 11 cells divides the 8x4x4 grid.
  const Box twelve = makeBox(fx10, "1x1x1x2x3x2");
  const Network twelveRouter(fx10, twelve);
  EXPECT_EQ(fold->whyNot({fx10, twelve, packedStencil(fx10, 11), twelveRouter,
                          Allocation::wholeBox(twelve.nodeCount, 11), {}}),
            "no block of K grid cells gives a coarse grid that folds onto the box");
}

}  // namespace
}  // namespace tac3map
