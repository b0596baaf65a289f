// Whole-node swaps after a tac3 search with K > 1 ranks per node (issue 24). A single-rank
// move on a full node is a swap of two ranks, and moving a group of K ranks that talk among
// themselves to a better node takes K such swaps, each of which separates the group and is
// rejected by the search near its end; the result then depends on where the seed's chain
// happened to group them. This descent swaps the whole contents of two nodes (slot s with
// slot s) as one move: for every pair of nodes (every pair on small allocations, a node and
// its partners' nodes and their neighbours on large ones), in a fixed order, it makes the swap
// when the key (tac3, then shared-link pairs) falls, and repeats until a pass changes nothing.
// The shared-link pairs keep it moving on the plateaus of tac3 (a max over links: most swaps
// leave it unchanged). It draws no random number and counts work, not time: its result
// depends only on its start and its budget (and the deadline, when it stops there).
#pragma once

#include <cstdint>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/network.hpp"
#include "tac3map/search/deadline.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map {

struct NodeSwapResult {
  Mapping mapping;
  std::uint64_t swaps = 0;   // node swaps made
  std::uint64_t trials = 0;  // node swaps evaluated
  std::uint64_t work = 0;    // communications visited by the engine (each rank move counted)
  int passes = 0;
  bool timedOut = false;
};

// Allocations of at most this many nodes try every pair; larger ones the nodes near a node's
// ranks' partners (as the tie-break does).
inline constexpr int kNodeSwapAllPairs = 256;
inline constexpr int kNodeSwapMaxPasses = 16;
// The descent looks at the clock every this much work.
inline constexpr std::uint64_t kNodeSwapCheckWork = std::uint64_t{1} << 16;

// `schedule` gives the engine (Tac3Engine) and the allocation. The result's (tac3, shared
// pairs) is never above the start's. With one rank per node it returns the start (a node swap
// is then a rank swap, which the search already tries).
NodeSwapResult swapNodeContents(const Problem& problem, const Network& router,
                                const Mapping& start, const Schedule& schedule,
                                std::uint64_t budget, const Deadline& deadline = {});

}  // namespace tac3map
