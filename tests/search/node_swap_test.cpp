// The refinement after a tac3 search with K > 1 (search/node_swap.hpp): the result is a valid
// mapping whose reference (tac3, shared pairs) is never above the start's, and below it from
// random starts; the same seed gives the same result, another seed may not; with one rank
// per node it is the start; a full-node stencil whose blocks were exchanged gets its key back.
#include "tac3map/search/node_swap.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tac3map/base/random.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/initial/initial_mapper.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

// A generated trace's CCSs under `model` (a level's messages one set with several engines).
Problem problemFrom(const std::string& trace, const Model& model) {
  CcsOptions options;
  options.engines = model.engines;
  return makeProblem(extractCcs(testing::traceFromText(trace), options), model);
}

// Work for one refinement here: enough for the descent and some rounds of kicks, small enough
// for a unit test.
constexpr std::uint64_t kWork = std::uint64_t{1} << 18;

bool below(const ExactScores& a, const ExactScores& b) {
  return a.tac3ByteCounts < b.tac3ByteCounts ||
         (a.tac3ByteCounts == b.tac3ByteCounts && a.sharedPairs < b.sharedPairs);
}

void expectOnePerSlot(const Mapping& m, int slots) {
  std::set<std::pair<int, int>> places;
  for (int t = 0; t < m.tasks(); ++t) {
    EXPECT_LT(m.slotOf(t), slots);
    places.insert({m.nodeOfTask[t], m.slotOf(t)});
  }
  EXPECT_EQ(static_cast<int>(places.size()), m.tasks());
}

// Random problems with K = 2 and 4 on an 8-node box, full and with free slots, both engines,
// both kinds of kick: the refinement's engine values agree with the reference evaluator's
// verdict, and the two kinds of kick lead to different maps.
TEST(NodeSwap, NeverWorseByTheReferenceAndBetterFromRandomStarts) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "1x2x2x2x1x1");
  const Network router(fx10, box);
  Rng rng(24);
  // Under the sanitizers (several times slower) one draw per setting.
  const int draws = testing::underSanitizers() ? 1 : 2;
  int swapped = 0, differ = 0;
  for (int k : {2, 4})
    for (int tasks : {box.nodeCount * k, box.nodeCount * k - k - 1})
      for (Tac3Engine engine : {Tac3Engine::Auto, Tac3Engine::General})
        for (int draw = 0; draw < draws; ++draw) {
          const Model model = makeModel(fx10, 0, k);
          const Problem p = testing::randomModelProblem(tasks, 3, rng, model);
          const Mapping start = randomMapping(tasks, box, rng.below(1u << 30), k);
          Schedule schedule;
          schedule.tac3Engine = engine;
          schedule.allocation = Allocation::wholeBox(box.nodeCount, k);
          std::vector<Mapping> results;
          for (NodeKicks kicks : {NodeKicks::Mixed, NodeKicks::RankSwaps}) {
            const NodeSwapResult r =
                swapNodeContents(p, router, start, schedule, kWork, 7, {}, kicks);
            expectOnePerSlot(r.mapping, k);
            const ExactScores before = evaluateExact(p, router, start);
            const ExactScores after = evaluateExact(p, router, r.mapping);
            EXPECT_FALSE(below(before, after));
            EXPECT_GT(r.trials, 0u);
            swapped += below(after, before);
            const NodeSwapResult again =
                swapNodeContents(p, router, start, schedule, kWork, 7, {}, kicks);
            EXPECT_EQ(again.mapping.nodeOfTask, r.mapping.nodeOfTask);
            EXPECT_EQ(again.mapping.slotOfTask, r.mapping.slotOfTask);
            results.push_back(r.mapping);
          }
          differ += results[0].nodeOfTask != results[1].nodeOfTask;
        }
  EXPECT_EQ(swapped, 16 * draws);  // a random start always has a better neighbour
  EXPECT_GT(differ, 0);            // the kind of kick is used
}

TEST(NodeSwap, OneRankPerNodeKeepsTheStart) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "1x2x2x2x3x1");
  const Network router(fx10, box);
  Rng rng(5);
  const Problem p = testing::randomModelProblem(box.nodeCount, 3, rng, makeModel(fx10));
  const Mapping start = randomMapping(box.nodeCount, box, 9);
  const NodeSwapResult r = swapNodeContents(p, router, start, Schedule{}, kWork, 7);
  EXPECT_EQ(r.mapping.nodeOfTask, start.nodeOfTask);
  EXPECT_EQ(r.trials, 0u);
}

// The 8x4x4 stencil, K = 4, folded by node-fold; two nodes' blocks exchanged raise the key
// (tac3, shared pairs), and node swaps restore it.
TEST(NodeSwap, PutsExchangedBlocksBack) {
  const Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "1x1x8x2x1x2");
  const Network router(fx10, box);
  StencilOptions o;
  o.dims = {8, 4, 4};
  o.periodic = true;
  o.bytes = 262144;
  const Problem p = problemFrom(generateStencilTrace(o), makeModel(fx10, 0, 4));
  const Allocation whole = Allocation::wholeBox(box.nodeCount, 4);
  const Mapping folded = makeNodeFoldMapper()->build({fx10, box, p, router, whole, {}});
  Mapping mixed = folded;
  const int a = folded.nodeOfTask[0], b = folded.nodeOfTask[4];  // x = 0 and 4: far apart
  for (int t = 0; t < p.tasks; ++t) {
    if (folded.nodeOfTask[t] == a) mixed.nodeOfTask[t] = b;
    if (folded.nodeOfTask[t] == b) mixed.nodeOfTask[t] = a;
  }
  const ExactScores best = evaluateExact(p, router, folded);
  const ExactScores worse = evaluateExact(p, router, mixed);
  // The busiest link may stay as busy; more links are then shared.
  ASSERT_TRUE(below(best, worse));
  Schedule schedule;
  schedule.allocation = whole;
  const NodeSwapResult r = swapNodeContents(p, router, mixed, schedule, kWork, 7);
  const ExactScores after = evaluateExact(p, router, r.mapping);
  EXPECT_EQ(after.tac3ByteCounts, best.tac3ByteCounts);
  EXPECT_EQ(after.sharedPairs, best.sharedPairs);
  EXPECT_GE(r.swaps, 1u);
}

// CG-64 with K = 4 on FX10 2x1x2x2x1x2 (issue 24): from block placement, whose groups of four
// ranks are right but whose nodes are not, the kicks find the arrangement a quarter faster
// (1.258 against 1.678 ms, in-node messages free as in the measurement) with every
// seed; with the shipped intra-node bandwidth every seed reaches one score below block's; the
// same seed twice gives the same mapping.
TEST(NodeSwap, ArrangesCgBlocksWithEverySeed) {
  // Under the sanitizers (several times slower) in-node free only, seeds 1 and 2.
  const std::vector<bool> settings =
      testing::underSanitizers() ? std::vector<bool>{false} : std::vector<bool>{false, true};
  const std::vector<std::uint64_t> seeds = testing::underSanitizers()
                                               ? std::vector<std::uint64_t>{1, 2}
                                               : std::vector<std::uint64_t>{1, 2, 3};
  for (const bool memory : settings) {
    SCOPED_TRACE(memory ? "intra-node bandwidth" : "in-node free");
    Machine fx10 = testing::fx10();
    if (!memory) fx10.intraNodeBandwidth = 0;
    const Box box = makeBox(fx10, "2x1x2x2x1x2");
    const Network router(fx10, box);
    CgOptions cg;
    cg.ranks = 64;
    cg.bytes = 1048576;
    const Problem p = problemFrom(generateCgTrace(cg), makeModel(fx10, 0, 4));
    const Allocation whole = Allocation::wholeBox(box.nodeCount, 4);
    Schedule schedule;
    schedule.allocation = whole;
    const Mapping block = whole.block(p.tasks);
    const std::uint64_t start = evaluateExact(p, router, block).tac3ByteCounts;
    constexpr std::uint64_t kWork = std::uint64_t{1} << 22;
    std::vector<std::uint64_t> reached;
    for (std::uint64_t seed : seeds) {
      const NodeSwapResult r = swapNodeContents(p, router, block, schedule, kWork, seed);
      reached.push_back(evaluateExact(p, router, r.mapping).tac3ByteCounts);
      if (!memory) {
        EXPECT_EQ(reached.back() * 4, start * 3) << seed;
      }
      EXPECT_LT(reached.back(), start) << seed;
      EXPECT_EQ(reached.back(), reached.front()) << seed;
      EXPECT_EQ(swapNodeContents(p, router, block, schedule, kWork, seed).mapping.nodeOfTask,
                r.mapping.nodeOfTask);
    }
  }
}

}  // namespace
}  // namespace tac3map
