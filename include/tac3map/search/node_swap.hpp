// The refinement after a tac3 search with K > 1 ranks per node (issue 24). A single-rank move
// on a full node is a swap of two ranks, and moving a group of K ranks that talk among
// themselves to a better node takes K such swaps, each of which separates the group and is
// rejected near the search's end; the result then depends on where the seed's chain happened
// to group them (CG-64 with K = 4 on FX10 2x1x2x2x1x2: 1.258 ms for one seed, 1.678 for
// others). This refinement
// - descends: passes of whole-node swaps (the contents of two nodes, slot s with slot s, as
//   one move) and of rank swaps across nodes, each made when the key (tac3, then shared-link
//   pairs) falls, until a pass changes nothing;
// - then does not stop on the plateau it reached: rounds of a kick (kNodeSwapKick ranks
//   swapped with random slots of other nodes, from `seed`) and a descent, each round kept
//   when the key is no higher than before it (equal keys too: tac3 is a max over links and
//   most moves leave it unchanged, so the rounds wander across its plateaus) and undone
//   otherwise, until its budget of work is spent;
// - returns, of the maps the rounds stood on at the lowest key value reached, the one the flow
//   model (flow.hpp) finds fastest, where the trace is small enough to simulate (its first
//   kPlateauFlowSamples maps; else the last map).
// Pairs: every pair of nodes and every node for a rank on allocations of at most
// kNodeSwapAllPairs nodes, else the nodes of the partners and their neighbours. It counts
// work, not time: its result depends only on its start, budget and seed (and the deadline,
// when it stops there), never on threads.
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
  std::uint64_t swaps = 0;      // node swaps made
  std::uint64_t rankMoves = 0;  // rank swaps across nodes made
  std::uint64_t trials = 0;     // node swaps evaluated
  std::uint64_t work = 0;       // communications visited by the engine (each rank move counted)
  int passes = 0;
  int rounds = 0;       // kicks
  int plateauMaps = 0;  // maps of the lowest plateau the flow model ranked
  bool timedOut = false;
};

inline constexpr int kNodeSwapAllPairs = 256;
inline constexpr int kNodeSwapMaxPasses = 16;
inline constexpr int kNodeSwapMaxRounds = 4096;
inline constexpr int kNodeSwapKick = 2;
inline constexpr double kNodeSwapWorkPerTrial = 32;
// The flow model ranks plateau maps (below) of traces of at most this many messages, at most
// this many maps per refinement: each ranking is a simulation of the trace.
inline constexpr std::size_t kPlateauFlowMessages = std::size_t{1} << 10;
inline constexpr std::uint64_t kPlateauFlowWork = std::uint64_t{1} << 20;
inline constexpr int kPlateauFlowSamples = 64;
// The refinement looks at the clock every this much work.
inline constexpr std::uint64_t kNodeSwapCheckWork = std::uint64_t{1} << 16;

// What a round's kick changes. Mixed: each of kNodeSwapKick changes is the contents of two
// nodes exchanged or, one time in three, one rank swapped onto another node. RankSwaps: only
// the latter, so every round regroups ranks; the node swaps of the descent that follows
// arrange the groups. Which one finds the lower plateau depends on the job (CG-64 with K = 2
// on FX10 1x1x8x2x1x2 needed Mixed; with K = 4 on 1x1x4x2x1x2, RankSwaps: 1.678 ms where
// Mixed stayed at 1.887 from every start), so the starts are refined both ways (choose_start).
enum class NodeKicks { Mixed, RankSwaps };

// The refinement's work under `schedule`: the annealing's planned trials times a trial's cost
// (2 x communications per task), and at least kNodeSwapWorkPerTrial per trial: on small
// problems the annealing's own work is too little for the kicks to cross the plateaus (CG-64,
// K = 2 on 1x1x8x2x1x2 costs 8 per trial; with 8, seed 1 stayed 15% above seeds 2 and 3).
// A short schedule (tests, quick looks) gets a short refinement; the default one about 2^24.
std::uint64_t nodeRefinementBudget(const Problem& problem, const Schedule& schedule);

// `schedule` gives the engine (Tac3Engine) and the allocation. The result's (tac3, shared
// pairs) is never above the start's. With one rank per node it returns the start (a node swap
// is then a rank swap, which the search already tries).
NodeSwapResult swapNodeContents(const Problem& problem, const Network& router, const Mapping& start,
                                const Schedule& schedule, std::uint64_t budget, std::uint64_t seed,
                                const Deadline& deadline = {}, NodeKicks kicks = NodeKicks::Mixed);

}  // namespace tac3map
