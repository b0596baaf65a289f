// The last step of `map` where the flow model can afford it (docs/search.md, "Flow descent"):
// a descent over single swaps of two ranks on different nodes, each judged by the flow model
// (model/flow.hpp), the referee-grade score. tac3 leaves out what decides between maps of
// nearly equal contention on full nodes without barriers (which step's messages overlap which
// on a link); the flow model has it, and on CG-64 with four ranks per node one swap found by
// it runs 8.6% faster in SimGrid than the map the tac3 search ends with (docs/validation.md).
#pragma once

#include <cstdint>
#include <optional>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/flow.hpp"
#include "tac3map/model/problem.hpp"
#include "tac3map/network/network.hpp"

namespace tac3map {

// A pass simulates the trace once per swap: messages x rank pairs. The descent runs only
// where one pass fits in this (CG-64: 256 messages x 2,016 pairs, 0.5 M), and stops when its
// passes have used it up: a few seconds.
inline constexpr std::uint64_t kFlowDescentMessages = std::uint64_t{1} << 23;
// A swap is taken when it makes the run at least this much faster (relative): smaller gains
// are below what the flow model can promise (it is within 0.1% of SimGrid on the peers
// bench) and would cost a pass each.
inline constexpr double kFlowDescentGain = 1e-3;

struct FlowDescent {
  Mapping mapping;     // the start when no swap made it faster
  double seconds = 0;  // its flow time
  int swaps = 0;       // swaps taken
};

// Best improvement: each pass simulates every swap of two ranks on different nodes (ranks in
// order, then partners in order) and takes the fastest if it makes the run kFlowDescentGain
// faster, the first of equals; until no swap is, the budget is spent or the
// clock passes `until`. Nothing when one pass is over `maxMessages` or the start cannot be
// simulated whole (within `maxWork`, flowSeconds'). Same result whatever the machine: the budget
// counts messages, and the clock only cuts a pass short when a time limit is given.
std::optional<FlowDescent> flowSwapDescent(
    const Problem& problem, const Network& router, const Mapping& start,
    std::uint64_t maxMessages = kFlowDescentMessages, std::uint64_t maxWork = kFlowMaxWork,
    FlowClock::time_point until = FlowClock::time_point::max());

}  // namespace tac3map
