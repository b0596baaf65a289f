// The tie-break after a tac3 search (issue 11): among mappings of equal objective, fewer
// shared-link pairs, then fewer byte-hops. The annealer already prefers fewer pairs at equal
// objective, but it never sees hops: a map that stops at the lower bound may take longer
// routes than the identity at the same bound (3.10 against 2.92 average hops on CG-64). This
// refiner is a greedy descent on the key (objective, pairs, byte-hops) from the search's
// result: it tries each task, in rank order, on the positions near its partners (every
// position on small boxes), makes a move only when the key falls, and stops after a pass that
// moves nothing. It draws no random number, so a seeded result depends only on its start.
#pragma once

#include <cstdint>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/model/objective.hpp"
#include "tac3map/network/routing.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map {

struct TieBreakResult {
  Mapping mapping;
  std::uint64_t moves = 0;   // moves made
  std::uint64_t trials = 0;  // moves evaluated by the engine
  int passes = 0;
};

// Boxes with at most this many positions (nodes x ranks per node) try every position;
// larger ones try the nodes of a task's partners and their neighbours, every slot.
inline constexpr int kTieBreakAllPositions = 512;
inline constexpr int kTieBreakMaxPasses = 16;

// `schedule` gives the engine (Tac3Engine) and the allocation; its temperature
// fields are not used. The result's tac3 is never above the start's.
TieBreakResult breakTac3Ties(const Problem& problem, const Router& router, const Mapping& start,
                             const Schedule& schedule);

}  // namespace tac3map
