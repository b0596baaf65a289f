// The flow model's barriers (src/model/flow_barrier.hpp): dissemination with its latencies
// kept equals dissemination walking its routes at every barrier, exactly, on random
// mappings and arrival times; linear leaves every rank after rank 0 has heard from all.
#include "flow_barrier.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tac3map/base/random.hpp"
#include "test_support.hpp"

namespace tac3map::flow {
namespace {

TEST(BarrierTimes, KeptLatenciesEqualWalkedOnesAndLinearWaitsForAll) {
  Machine fx10 = testing::fx10();
  fx10.messageLatency = 9e-7;
  fx10.hopLatency = 1e-7;
  const Box box = makeBox(fx10, "2x2x2x2x3x2");
  const Network router(fx10, box);
  Rng rng(3);
  for (int draw = 0; draw < 20; ++draw) {
    Problem p;
    p.tasks = 2 + static_cast<int>(rng.below(90));
    p.model = makeModel(fx10);
    const Mapping m = randomMapping(p.tasks, box, rng.below(1u << 30));
    std::vector<double> reached(p.tasks);
    for (double& t : reached) t = static_cast<double>(rng.below(1000)) * 1e-7;
    p.barrierAlgorithm = Algorithm::Dissemination;
    std::vector<double> kept = reached, walked = reached;
    BarrierTimes(p, router, m).release(kept);
    BarrierTimes(p, router, m, 0).release(walked);
    EXPECT_EQ(kept, walked) << draw;
    for (int r = 0; r < p.tasks; ++r) EXPECT_GE(kept[r], reached[r]);
    p.barrierAlgorithm = Algorithm::Linear;
    std::vector<double> linear = reached;
    BarrierTimes(p, router, m).release(linear);
    // Rank 0 hears from the others a latency after they came, then answers each.
    const double others = *std::max_element(reached.begin() + 1, reached.end());
    EXPECT_GE(linear[0], std::max(reached[0], others + fx10.messageLatency)) << draw;
    for (int r = 1; r < p.tasks; ++r)
      EXPECT_GE(linear[r], linear[0] + fx10.messageLatency) << draw;
  }
}

}  // namespace
}  // namespace tac3map::flow
