// The layer-fold start (src/initial/layer_fold.cpp): with K ranks per node, a layer of ranks
// per slot, each laid out by its own order of the box's axes. On CG-64 with every slot used
// on a cube of nodes it is valid, fills every slot, sends no two messages of a row step over
// one link (block placement sends a node's K messages over one), beats block and round-robin
// placement under tac3 and is the same every time; it says why it does not apply elsewhere.
#include <gtest/gtest.h>

#include <map>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/model/objective.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// Directed links carrying more than one of the messages rank -> rank ^ bit (a CG row step).
int sharedLinks(const Problem& p, const Network& router, const Mapping& m, int bit) {
  std::map<LinkId, int> load;
  for (std::size_t i = 0; i < p.realCommunications; ++i)
    if (p.dst[i] == (p.src[i] ^ bit))
      for (LinkId link : router.route(m.nodeOfTask[p.src[i]], m.nodeOfTask[p.dst[i]])) ++load[link];
  int shared = 0;
  for (const auto& [link, messages] : load) shared += messages > 1;
  return shared;
}

struct Case {
  const char* shape;
  int k;
};

TEST(LayerFold, SendsEachRowStepOverDistinctLinksOnACubeOfNodes) {
  const Machine fx10 = testing::fx10();
  const auto fold = makeLayerFoldMapper();
  // CG-64 (an 8x8 grid: row steps flip bits 4, 2 and 1 of the rank) on a 4-cube with four
  // ranks per node and on a 5-cube with two.
  for (const Case& c : {Case{"1x2x2x2x1x2", 4}, Case{"2x2x2x2x1x2", 2}}) {
    SCOPED_TRACE(c.shape);
    const Box box = makeBox(fx10, c.shape);
    const Network router(fx10, box);
    const Problem p = generateCgProblem(CgOptions{}, makeModel(fx10, 0, c.k));
    const Allocation whole = Allocation::wholeBox(box.nodeCount, c.k);
    ASSERT_EQ(p.tasks, box.nodeCount * c.k);
    const StartContext context{fx10, box, p, router, whole, {}};
    ASSERT_EQ(fold->whyNot(context), "");
    const Mapping m = fold->build(context);
    // No two ranks share a slot (checkMapping throws), and there are as many ranks as slots:
    // every slot used once.
    checkMapping(m, box, "layer-fold", c.k);
    const Mapping block = whole.block(p.tasks);
    for (int bit : {4, 2, 1}) {
      SCOPED_TRACE(bit);
      EXPECT_EQ(sharedLinks(p, router, m, bit), 0);
    }
    // Block placement keeps bit 1's partners (and with K = 4 bit 2's) on the node and sends
    // the node's messages of the next step to one node, over one link.
    EXPECT_GT(sharedLinks(p, router, block, c.k == 4 ? 4 : 2), 0);
    const ExactScores scores = evaluateExact(p, router, m);
    for (const Mapping& other : {block, whole.roundRobin(p.tasks)})
      EXPECT_LT(scores.tac3ByteCounts, evaluateExact(p, router, other).tac3ByteCounts);
    if (c.k == 4) {  // the same every time (once: a build scores 13,000 mappings)
      const Mapping again = fold->build(context);
      EXPECT_EQ(again.nodeOfTask, m.nodeOfTask);
      EXPECT_EQ(again.slotOfTask, m.slotOfTask);
    }
  }
}

// Nine axes of two nodes: 9! orders of the axes, too many to list; the start draws them afresh
// and still lays out a valid mapping with every slot used once.
TEST(LayerFold, DrawsOrdersOnBoxesWithManyAxes) {
  const Machine cube = testing::simpleMachine(std::vector<int>(9, 2), std::vector<bool>(9));
  const Box box = makeBox(cube, cube.shapeText());
  const Network router(cube, box);
  CgOptions cg;
  cg.ranks = 1024;
  const Problem p = generateCgProblem(cg, makeModel(cube, 0, 2));
  const Allocation whole = Allocation::wholeBox(box.nodeCount, 2);
  const StartContext context{cube, box, p, router, whole, {}};
  const auto fold = makeLayerFoldMapper();
  ASSERT_EQ(fold->whyNot(context), "");
  const Mapping m = fold->build(context);
  ASSERT_EQ(p.tasks, box.nodeCount * 2);
  checkMapping(m, box, "layer-fold", 2);  // no two ranks share a slot: every slot used once
}

TEST(LayerFold, SaysWhyItDoesNotApply) {
  const Machine fx10 = testing::fx10();
  const auto fold = makeLayerFoldMapper();
  const Box box = makeBox(fx10, "1x2x2x2x1x2");
  const Network router(fx10, box);
  const Problem cg = generateCgProblem(CgOptions{}, makeModel(fx10, 0, 4));
  EXPECT_EQ(fold->whyNot({fx10, box, cg, router, Allocation::wholeBox(box.nodeCount, 1), {}})
                .rfind("one rank per node", 0),
            0u);
  EXPECT_EQ(
      fold->whyNot({fx10, box, cg, router, Allocation::ofNodes({0, 1}, box.nodeCount, 32), {}}),
      "the job is a node table, not a box");
  CgOptions sixteen;
  sixteen.ranks = 16;
  EXPECT_EQ(fold->whyNot({fx10,
                          box,
                          generateCgProblem(sixteen),
                          router,
                          Allocation::wholeBox(box.nodeCount, 4),
                          {}}),
            "the ranks fit one per node: one layer");
}

}  // namespace
}  // namespace tac3map
