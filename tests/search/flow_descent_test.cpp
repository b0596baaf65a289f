// The flow model's swap descent (search/flow_descent.hpp): from random starts on full nodes it
// ends where no swap of two ranks on different nodes is kFlowDescentGain faster by the flow
// model (checked by simulating every swap here), its time is the flow model's of its map, it
// is never slower than the start and the same start gives the same map; a budget below one
// pass runs nothing.
#include "tac3map/search/flow_descent.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tac3map/base/random.hpp"
#include "tac3map/model/ccs.hpp"
#include "test_support.hpp"

namespace tac3map {
namespace {

TEST(FlowDescent, EndsWhereNoSwapIsFasterByTheFlowModel) {
  Machine fx10 = testing::fx10();
  const Box box = makeBox(fx10, "1x2x2x1x1x1");
  const Network router(fx10, box);
  Rng rng(7);
  const int draws = testing::underSanitizers() ? 1 : 3;
  int improved = 0;
  for (int k : {2, 4})
    for (int draw = 0; draw < draws; ++draw) {
      CcsSet s;
      s.tasks = box.nodeCount * k;
      for (int t = 0; t < 3; ++t) {  // three steps of random messages, no barrier
        std::vector<Communication> set;
        for (int i = 0; i < s.tasks; ++i) {
          set.push_back({static_cast<int>(rng.below(s.tasks)), static_cast<int>(rng.below(s.tasks)),
                         std::uint64_t{1} << (12 + rng.below(8))});
          set.back().level = t;
        }
        s.sets.push_back(std::move(set));
      }
      const Problem p = makeProblem(s, makeModel(fx10, 0, k));
      const Mapping start = randomMapping(s.tasks, box, rng.below(1u << 30), k);
      const std::optional<FlowDescent> d = flowSwapDescent(p, router, start);
      ASSERT_TRUE(d.has_value());
      const double startSeconds = *flowSeconds(p, router, start);
      EXPECT_DOUBLE_EQ(d->seconds, *flowSeconds(p, router, d->mapping));
      EXPECT_LE(d->seconds, startSeconds);
      if (d->swaps > 0) {
        EXPECT_LT(d->seconds, startSeconds * (1 - kFlowDescentGain));
        ++improved;
      }
      // K ranks on every node still, each in its own slot.
      std::set<std::pair<int, int>> places;
      for (int t = 0; t < s.tasks; ++t)
        places.insert({d->mapping.nodeOfTask[t], d->mapping.slotOf(t)});
      EXPECT_EQ(static_cast<int>(places.size()), s.tasks);
      // The reference: every swap simulated from scratch.
      for (int a = 0; a < s.tasks; ++a)
        for (int b = a + 1; b < s.tasks; ++b) {
          if (d->mapping.nodeOfTask[a] == d->mapping.nodeOfTask[b]) continue;
          Mapping m = d->mapping;
          std::swap(m.nodeOfTask[a], m.nodeOfTask[b]);
          if (!m.slotOfTask.empty()) std::swap(m.slotOfTask[a], m.slotOfTask[b]);
          EXPECT_GE(*flowSeconds(p, router, m), d->seconds * (1 - kFlowDescentGain))
              << "k " << k << " draw " << draw << " swap " << a << " " << b;
        }
      // Deterministic.
      const std::optional<FlowDescent> again = flowSwapDescent(p, router, start);
      EXPECT_EQ(again->mapping.nodeOfTask, d->mapping.nodeOfTask);
      EXPECT_EQ(again->swaps, d->swaps);
      // A budget below one pass: nothing.
      EXPECT_FALSE(flowSwapDescent(p, router, start, flowMessageCount(p)).has_value());
    }
  EXPECT_GT(improved, 0);  // random starts leave swaps to take
}

}  // namespace
}  // namespace tac3map
