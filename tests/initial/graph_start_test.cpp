// The graph start (src/initial/graph.cpp, Scotch's static mapping): valid on every slot count
// (ranks beyond a node's K slots moved), the same on every call, and read in Scotch's terminal
// numbering (a stencil lands far closer than the launcher's placement would put it).
#include <gtest/gtest.h>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/model/ccs.hpp"
#include "tac3map/model/objective.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

TEST(GraphStart, PlacesAStencilNearItsNeighbours) {
  const Machine k = loadMachine(testing::sourcePath("topologies/k-computer.json"));
  const Box box = makeBox(k, "4x4x6x2x3x2");
  const Network router(k, box);
  StencilOptions o;
  o.dims = {12, 12, 8};
  o.periodic = true;
  const Problem p = makeProblem(extractCcs(testing::traceFromText(generateStencilTrace(o))));
  const Allocation whole = Allocation::wholeBox(box.nodeCount);
  const auto graph = makeGraphMapper();
  ASSERT_EQ(graph->whyNot({k, box, p, router, whole, {}}), "");
  const Mapping m = graph->build({k, box, p, router, whole, {}});
  checkMapping(m, box, "graph");
  EXPECT_EQ(graph->build({k, box, p, router, whole, {}}).nodeOfTask, m.nodeOfTask);
  // Misread terminal numbers would scatter neighbours like a random placement (about 6
  // hops on this box); block placement takes 3.14.
  const double hops = evaluate(p, router, m, 1.0).avgHops;
  EXPECT_LT(hops, evaluate(p, router, whole.block(p.tasks), 1.0).avgHops);
  EXPECT_LT(hops, 2.0);
}

TEST(GraphStart, FillsEverySlotOfAPackedBox) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "1x2x2x2x1x2");  // 16 nodes, 4 slots each: 64 ranks fill it
  const Network router(fx10, box);
  CgOptions cg;
  cg.ranks = 64;
  const Problem p = generateCgProblem(cg);
  const Allocation four = Allocation::wholeBox(box.nodeCount, 4);
  const auto graph = makeGraphMapper();
  const Mapping m = graph->build({fx10, box, p, router, four, {}});
  checkMapping(m, box, "graph K = 4", 4);
  const Allocation table = Allocation::ofNodes({0, 1, 2}, box.nodeCount, 32);
  EXPECT_EQ(graph->whyNot({fx10, box, p, router, table, {}}), "the job is a node table, not a box");
}

}  // namespace
}  // namespace tac3map
